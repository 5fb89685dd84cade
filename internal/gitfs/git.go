package gitfs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// TopLevel returns the top directory of the git work tree holding dir (for a linked worktree, that worktree's own
// top) as an absolute path with symbolic links resolved. It asks git (rev-parse --show-toplevel), so that it agrees
// with every git command run in dir: GIT_DIR, GIT_WORK_TREE and GIT_CEILING_DIRECTORIES count, and a directory named
// .git that is not a repository does not. The error says, in git's words, why dir is in no work tree, and wraps
// exec.ErrNotFound when git is not installed.
func TopLevel(dir string) (string, error) {
	out, err := git(dir, "rev-parse", "--show-toplevel")
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		msg := strings.TrimPrefix(strings.TrimSpace(string(ee.Stderr)), "fatal: ")
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("%s is not inside a git work tree (%s)", dir, msg)
	}
	if err != nil {
		return "", err
	}
	if out == "" {
		// Older git answers so inside a .git directory.
		return "", fmt.Errorf("%s is not inside a git work tree (it is inside a git directory)", dir)
	}
	top, err := filepath.Abs(filepath.FromSlash(out))
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(top)
}

// resolve returns the commit rev names. rev is resolved first and its object peeled to a commit after, so that
// rev may be any revision git knows, ":/message" included, whose syntax a "^{commit}" suffix would change.
func resolve(dir, rev string) (string, error) {
	hint := `(see "git log" for commits and "git branch -a" for branches; e.g. HEAD~1, a commit hash, v1.2.0 or origin/main)`
	if strings.HasPrefix(rev, "-") {
		// git would read it as an option.
		return "", fmt.Errorf("%w %q: a revision cannot start with \"-\" %s", ErrUnknownRevision, rev, hint)
	}
	unknown := func(out string, err error) bool {
		// --quiet turns "no such object" into exit status 1 and no output; other failures still say why on stderr.
		var ee *exec.ExitError
		return (errors.As(err, &ee) && ee.ExitCode() == 1) || (err == nil && out == "")
	}
	obj, err := git(dir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev)
	if unknown(obj, err) {
		return "", fmt.Errorf("%w %q: %s", ErrUnknownRevision, rev, whyUnknown(dir, rev, hint))
	}
	if err != nil {
		return "", err
	}
	commit, err := git(dir, "rev-parse", "--verify", "--quiet", "--end-of-options", obj+"^{commit}")
	if unknown(commit, err) {
		return "", fmt.Errorf("%w %q: it names a %s, not a commit %s", ErrUnknownRevision, rev, objectType(dir, obj), hint)
	}
	return commit, err
}

// ancestry matches a revision that walks back from HEAD: HEAD~3, HEAD^, HEAD^^, @~2.
var ancestry = regexp.MustCompile(`^(HEAD|@)([~^][0-9]*)+$`)

// whyUnknown says why rev names no commit, for a repository where it does not: no commit at all yet, a walk back
// from HEAD past the first commit (with how many commits there are, rather than suggesting HEAD~1 to a repository
// that has one), or else no such name, with the hint.
func whyUnknown(dir, rev, hint string) string {
	if _, err := git(dir, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err != nil {
		return "the repository has no commit yet: commit the project first, then diff compares the working tree with it"
	}
	if ancestry.MatchString(rev) {
		if n, err := git(dir, "rev-list", "--count", "HEAD"); err == nil {
			commits := "commits"
			if n == "1" {
				commits = "commit"
			}
			return fmt.Sprintf("it goes back further than the history of HEAD, which has %s %s (see \"git log\")", n, commits)
		}
	}
	return "no commit of that name in this repository " + hint
}

// objectType names the type of the object oid, for a message.
func objectType(dir, oid string) string {
	if typ, err := git(dir, "cat-file", "-t", oid); err == nil && typ != "" {
		return typ
	}
	return "object"
}

// git runs git in dir and returns its standard output less one final newline. The error of a failed run holds
// git's standard error, and is an *exec.ExitError whose Stderr holds it too.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			ee.Stderr = stderr.Bytes()
		}
		return "", gitError(args[0], err, stderr.Bytes())
	}
	return strings.TrimSuffix(stdout.String(), "\n"), nil
}

// gitError describes a failed git command by what git said, keeping the *exec.ExitError for errors.As.
func gitError(sub string, err error, stderr []byte) error {
	if errors.Is(err, exec.ErrNotFound) {
		return fmt.Errorf("git is needed to read a committed revision: %w", err)
	}
	if msg := strings.TrimSpace(string(stderr)); msg != "" {
		return fmt.Errorf("git %s: %s (%w)", sub, msg, err)
	}
	return fmt.Errorf("git %s: %w", sub, err)
}

// blobReader reads blobs by object id.
type blobReader interface {
	blob(oid string) ([]byte, error)
	close() error
}

// newBlobReader starts the blobReader Open uses: a git cat-file --batch in dir. Tests replace it to see which
// blobs Open reads.
var newBlobReader = func(dir string) (blobReader, error) { return startCatFile(dir) }

// catFile is a running git cat-file --batch, asked for one object at a time: Open asks for a link's target before
// it knows which blob it needs next.
type catFile struct {
	done   bool // the process has been waited for
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr bytes.Buffer
}

func startCatFile(dir string) (*catFile, error) {
	c := &catFile{cmd: exec.Command("git", "-C", dir, "cat-file", "--batch")}
	c.cmd.Stderr = &c.stderr
	stdin, err := c.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.cmd.Start(); err != nil {
		return nil, gitError("cat-file", err, nil)
	}
	c.stdin, c.stdout = stdin, bufio.NewReaderSize(stdout, 64<<10)
	return c, nil
}

// blob asks for one blob and reads the answer; git flushes each answer, unasked for --buffer.
func (c *catFile) blob(oid string) ([]byte, error) {
	data, err := c.ask(oid)
	if err == nil {
		return data, nil
	}
	c.stdin.Close()
	c.cmd.Process.Kill()
	werr := c.cmd.Wait()
	c.done = true
	// git gone: its output ended, or it exited before it was asked and the ask met a pipe with no reader.
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, fs.ErrClosed) ||
		errors.Is(err, syscall.EPIPE) {
		return nil, gitError("cat-file", werr, c.stderr.Bytes())
	}
	return nil, fmt.Errorf("git cat-file: %w", err)
}

func (c *catFile) ask(oid string) ([]byte, error) {
	if _, err := io.WriteString(c.stdin, oid+"\n"); err != nil {
		return nil, err
	}
	// <object> SP <type> SP <size> LF <contents> LF, or <object> SP missing LF.
	header, err := c.stdout.ReadString('\n')
	if err != nil {
		return nil, err
	}
	fields := strings.Fields(header)
	if len(fields) != 3 || fields[0] != oid || fields[1] != "blob" {
		return nil, fmt.Errorf("asked for blob %s, got %q", oid, strings.TrimSpace(header))
	}
	size, err := strconv.ParseInt(fields[2], 10, 0)
	if err != nil || size < 0 {
		return nil, fmt.Errorf("blob %s: bad size in %q", oid, strings.TrimSpace(header))
	}
	data := make([]byte, size+1)
	if _, err := io.ReadFull(c.stdout, data); err != nil {
		return nil, err
	}
	if data[size] != '\n' {
		return nil, fmt.Errorf("blob %s: not followed by a newline", oid)
	}
	return data[:size:size], nil
}

func (c *catFile) close() error {
	if c.done {
		return nil
	}
	c.done = true
	c.stdin.Close()
	if err := c.cmd.Wait(); err != nil {
		return gitError("cat-file", err, c.stderr.Bytes())
	}
	return nil
}

// Head returns the full hash of the commit checked out in dir.
func Head(dir string) (string, error) { return git(dir, "rev-parse", "--verify", "HEAD^{commit}") }

// Commit is one commit of a project's history: its hash, its first parent in the history as seen through the
// project's paths (git's parent rewriting: "" when there is none), its committer time and subject line.
type Commit struct {
	Hash, Parent string
	Time         time.Time
	Subject      string
}

// Commits lists the commits of rng (a git revision range, "" meaning HEAD) that touched the project in dir (its
// manifest, blocks/, templates/, fixtures/), newest first, and whether the repository is a shallow clone, in
// which case the oldest commit's parent may be cut off. Only git log and rev-parse run; nothing is written.
func Commits(dir, rng string) ([]Commit, bool, error) {
	if rng == "" {
		rng = "HEAD"
	}
	if strings.HasPrefix(rng, "-") {
		return nil, false, fmt.Errorf("%w: %q", ErrUnknownRevision, rng)
	}
	args := []string{"log", "--parents", "--format=%H%x00%P%x00%ct%x00%s", rng, "--"}
	args = append(args, projectPaths...)
	out, err := git(dir, args...)
	if err != nil {
		return nil, false, err
	}
	var commits []Commit
	for _, rec := range strings.Split(out, "\n") {
		f := strings.Split(rec, "\x00")
		if len(f) != 4 {
			continue
		}
		hashes := strings.Fields(f[0] + " " + f[1])
		sec, err := strconv.ParseInt(f[2], 10, 64)
		if len(hashes) == 0 || err != nil {
			return nil, false, fmt.Errorf("git log: unexpected line %q", rec)
		}
		c := Commit{Hash: hashes[0], Time: time.Unix(sec, 0).UTC(), Subject: f[3]}
		if len(hashes) > 1 {
			c.Parent = hashes[1]
		}
		commits = append(commits, c)
	}
	shallow, err := git(dir, "rev-parse", "--is-shallow-repository")
	return commits, shallow == "true", err
}
