package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary stand in for the promptc binary: testscript puts a copy of it named promptc on
// $PATH, and running that copy runs the command line.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"promptc": func() { os.Exit(run(os.Args, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the end-to-end command-line tests in testdata/script: one txtar file per concern, each building
// a small project inline and asserting stdout, stderr and exit status exactly.
var update = flag.Bool("update", false, "rewrite the expected output in testdata/script")

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                "testdata/script",
		RequireUniqueNames: true,
		// A failing line does not hide the ones after it: one run shows every difference in a script.
		ContinueOnError: true,
		// go test ./cmd/promptc -run TestScripts -update rewrites the expected files of failing cmp lines; read
		// the resulting diff before committing it.
		UpdateScripts: *update,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":     cmdExits,
			"crlf":      cmdCRLF,
			"unescape":  cmdUnescape,
			"tree":      cmdTree,
			"stamp":     cmdStamp,
			"unchanged": cmdUnchanged,
			"fill":      cmdFill,
			"mkfifo":    cmdMkfifo,
		},
	})
}

// cmdExits runs a program and checks its exact exit status, since testscript's "! exec" only tells zero from
// non-zero and promptc's contract tells 1 (a difference) from 2 (invalid input or usage):
//
//	exits 2 promptc build
//
// stdout and stderr are kept for the cmp, stdout and stderr commands that follow.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exits (give the expected status instead)")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exits STATUS program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil || want < 0 {
		ts.Fatalf("exits: status %q is not a number", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// cmdCRLF rewrites files with CRLF line endings, which txtar archives cannot hold readably:
//
//	crlf blocks/a.toml
func cmdCRLF(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: crlf file...")
	}
	for _, name := range args {
		text := ts.ReadFile(name)
		text = strings.ReplaceAll(text, "\r\n", "\n")
		ts.Check(os.WriteFile(ts.MkAbs(name), []byte(strings.ReplaceAll(text, "\n", "\r\n")), 0o644))
	}
}

// cmdUnescape rewrites files replacing the escapes \r, \xHH (one byte, so invalid UTF-8 can be written) and
// \uHHHH (one rune, such as a BOM) by what they stand for. Every other backslash is kept, so TOML escapes in the
// same file keep their meaning.
//
//	unescape promptc.toml
func cmdUnescape(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: unescape file...")
	}
	for _, name := range args {
		out, err := unescape(ts.ReadFile(name))
		if err != nil {
			ts.Fatalf("unescape %s: %v", name, err)
		}
		ts.Check(os.WriteFile(ts.MkAbs(name), out, 0o644))
	}
}

func unescape(s string) ([]byte, error) {
	var out []byte
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			out = append(out, s[i])
			continue
		}
		switch s[i+1] {
		case 'r':
			out = append(out, '\r')
			i++
		case 'x':
			if i+4 > len(s) {
				return nil, fmt.Errorf("short \\x escape at byte %d", i)
			}
			n, err := strconv.ParseUint(s[i+2:i+4], 16, 8)
			if err != nil {
				return nil, fmt.Errorf("bad \\x escape at byte %d", i)
			}
			out = append(out, byte(n))
			i += 3
		case 'u':
			if i+6 > len(s) {
				return nil, fmt.Errorf("short \\u escape at byte %d", i)
			}
			n, err := strconv.ParseUint(s[i+2:i+6], 16, 32)
			if err != nil {
				return nil, fmt.Errorf("bad \\u escape at byte %d", i)
			}
			out = append(out, string(rune(n))...)
			i += 5
		default:
			out = append(out, '\\')
		}
	}
	return out, nil
}

// cmdTree prints the regular files under a directory, one slash path relative to it per line, sorted, so that a
// script can assert that a build wrote exactly these files and nothing else:
//
//	tree build
//	cmp stdout want-tree.txt
func cmdTree(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tree dir")
	}
	root := ts.MkAbs(args[0])
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	ts.Check(err)
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Fprintln(ts.Stdout(), p)
	}
}

// stamps holds what stamp saw of each file, per script (scripts run in parallel), for unchanged to compare with.
var stamps sync.Map // map[stampKey]os.FileInfo

type stampKey struct {
	ts   *testscript.TestScript
	name string
}

// cmdStamp remembers the identity of files (which file it is, its modification time and size) for unchanged to
// compare with later:
//
//	stamp CLAUDE.md
//	exits 0 promptc install …
//	unchanged CLAUDE.md
func cmdStamp(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: stamp file...")
	}
	for _, name := range args {
		fi, err := os.Stat(ts.MkAbs(name))
		ts.Check(err)
		stamps.Store(stampKey{ts, name}, fi)
	}
}

// cmdUnchanged checks that files were not rewritten since stamp: the same file (an atomic write renames a new file
// over the old one, so even a rewrite with the same bytes within the clock's resolution shows), with the same
// modification time and size. "! unchanged" checks that each was rewritten. A read-only directory would not prove
// it: tests may run as root, whom permissions do not stop.
func cmdUnchanged(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: [!] unchanged file...")
	}
	for _, name := range args {
		v, ok := stamps.Load(stampKey{ts, name})
		if !ok {
			ts.Fatalf("unchanged %s: no stamp of it: run stamp %s first", name, name)
		}
		was := v.(os.FileInfo)
		now, err := os.Stat(ts.MkAbs(name))
		ts.Check(err)
		same := os.SameFile(was, now) && was.ModTime().Equal(now.ModTime()) && was.Size() == now.Size()
		switch {
		case neg && same:
			ts.Fatalf("%s was not rewritten", name)
		case !neg && !same:
			ts.Fatalf("%s was rewritten (size %d, then %d)", name, was.Size(), now.Size())
		}
	}
}

// cmdFill writes a file of exactly the given size, lines of "x" ended by "\n", for the size limits that a txtar
// archive would be too large to hold:
//
//	fill CLAUDE.md 8388609
func cmdFill(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: fill file size")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 0 {
		ts.Fatalf("fill: size %q is not a number", args[1])
	}
	line := strings.Repeat("x", 63) + "\n"
	data := []byte(strings.Repeat(line, n/len(line)+1))[:n]
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), data, 0o644))
}
