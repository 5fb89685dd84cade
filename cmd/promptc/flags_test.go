package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/internal/cliflag"
)

// TestFlagsFirst: every command's flags move ahead of its arguments, each with its value when it takes one (as the
// command defines it), so that urfave/cli (which stops reading flags at the first argument) sees them; "--" and
// everything after it stay in place.
func TestFlagsFirst(t *testing.T) {
	tests := []struct {
		name string
		args string // split at spaces
		want string
	}{
		{
			name: "both value flags after the revision",
			args: "promptc diff HEAD~1 --tokenizer cl100k_base --format json",
			want: "promptc diff --tokenizer cl100k_base --format json HEAD~1",
		},
		{
			name: "tokenizer after the revision",
			args: "promptc diff HEAD~1 --tokenizer cl100k_base",
			want: "promptc diff --tokenizer cl100k_base HEAD~1",
		},
		{
			name: "tokenizer with one dash",
			args: "promptc diff HEAD -tokenizer o200k_base",
			want: "promptc diff -tokenizer o200k_base HEAD",
		},
		{
			name: "-C before the command",
			args: "promptc -C dir diff --tokenizer cl100k_base HEAD",
			want: "promptc -C dir diff --tokenizer cl100k_base HEAD",
		},
		{
			name: "-C before the command, flags after the revision",
			args: "promptc -C dir diff HEAD --format json --tokenizer cl100k_base",
			want: "promptc -C dir diff --format json --tokenizer cl100k_base HEAD",
		},
		{
			name: "--color and its value before the command",
			args: "promptc --color always diff HEAD --format json",
			want: "promptc --color always diff --format json HEAD",
		},
		{
			name: "--color=value before the command",
			args: "promptc --color=never -C dir diff HEAD --format json",
			want: "promptc --color=never -C dir diff --format json HEAD",
		},
		{
			name: "a -C directory named like a command",
			args: "promptc -C diff build HEAD --out o",
			want: "promptc -C diff build --out o HEAD",
		},
		{
			name: "double dash ends the flags",
			args: "promptc diff -- --weird-rev",
			want: "promptc diff -- --weird-rev",
		},
		{
			name: "flags before a double dash move, the rest stays",
			args: "promptc diff HEAD --format json -- --tokenizer x",
			want: "promptc diff --format json HEAD -- --tokenizer x",
		},
		{
			name: "value joined with =",
			args: "promptc diff --format=json REV",
			want: "promptc diff --format=json REV",
		},
		{
			name: "value joined with = after the revision",
			args: "promptc diff REV --tokenizer=cl100k_base --format=json",
			want: "promptc diff --tokenizer=cl100k_base --format=json REV",
		},
		{
			name: "boolean flag takes no value",
			args: "promptc diff REV --help OTHER",
			want: "promptc diff --help REV OTHER",
		},
		{
			name: "value flag last, with no value",
			args: "promptc diff REV --tokenizer",
			want: "promptc diff --tokenizer REV",
		},
		{
			name: "a lone dash is an argument",
			args: "promptc diff - --format json",
			want: "promptc diff --format json -",
		},
		{
			name: "flags already first",
			args: "promptc lint --format json extra",
			want: "promptc lint --format json extra",
		},
		{
			name: "explain's format after the line",
			args: "promptc explain blocks/a.toml:3 --format json",
			want: "promptc explain --format json blocks/a.toml:3",
		},
		{
			name: "explain's task after the block",
			args: "promptc -C p explain safety --task chat --fixture basic",
			want: "promptc -C p explain --task chat --fixture basic safety",
		},
		{
			name: "import's flags among its files",
			args: "promptc import a.md --out p --task x=b.md c.md",
			want: "promptc import --out p --task x=b.md a.md c.md",
		},
		{
			name: "a boolean flag does not take the next argument",
			args: "promptc check dir --update other",
			want: "promptc check --update dir other",
		},
		{
			name: "a subcommand's value flags",
			args: "promptc hook install-check proj --task chat --all-targets --dir ws",
			want: "promptc hook install-check --task chat --all-targets --dir ws proj",
		},
		{
			name: "an unknown flag moves alone",
			args: "promptc explain safety --bogus x",
			want: "promptc explain --bogus safety x",
		},
		{
			name: "an unknown command is left alone",
			args: "promptc biuld x --out y",
			want: "promptc biuld x --out y",
		},
		{
			name: "hook's subcommand",
			args: "promptc hook install --format json",
			want: "promptc hook install --format json",
		},
		{
			name: "-C after the command moves ahead of it",
			args: "promptc build -C dir --out o",
			want: "promptc -C dir build --out o",
		},
		{
			name: "global flags after a command's argument, with = and with a value",
			args: "promptc -C p explain a.md:3 --color=never --format json --snippets always",
			want: "promptc -C p --color=never --snippets always explain --format json a.md:3",
		},
		{
			name: "-C after a subcommand moves ahead of its parent",
			args: "promptc hook install --force -C dir",
			want: "promptc -C dir hook install --force",
		},
		{
			name: "a global flag after a double dash is an argument",
			args: "promptc diff -- -C dir",
			want: "promptc diff -- -C dir",
		},
		{
			name: "--snippets before the command takes its value",
			args: "promptc --snippets always explain a.md:3 --format json",
			want: "promptc --snippets always explain --format json a.md:3",
		},
		{
			name: "help after the command stays the command's",
			args: "promptc build -h",
			want: "promptc build -h",
		},
		{
			name: "no command",
			args: "promptc -C",
			want: "promptc -C",
		},
		{
			name: "program name only",
			args: "promptc",
			want: "promptc",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := strings.Fields(tt.args)
			orig := slices.Clone(args)
			got := cliflag.Reorder(newApp(&env{}), args)
			if want := strings.Fields(tt.want); !slices.Equal(got, want) {
				t.Errorf("cliflag.Reorder(%q)\n got %q\nwant %q", orig, got, want)
			}
			if !slices.Equal(args, orig) {
				t.Errorf("flagsFirst changed its argument to %q", args)
			}
		})
	}
}

// TestHelpArgs: promptc help ARGS... runs as promptc ARGS... --help, global flags (and their values) kept in front;
// help alone, and help as the value of a flag or as a command's argument, are left alone.
func TestHelpArgs(t *testing.T) {
	tests := []struct {
		name string
		args string // split at spaces
		want string
	}{
		{name: "a command", args: "promptc help build", want: "promptc build --help"},
		{name: "a subcommand", args: "promptc help hook install", want: "promptc hook install --help"},
		{name: "global flags", args: "promptc -C dir --color never help render", want: "promptc -C dir --color never render --help"},
		{name: "flag with =", args: "promptc --color=never help lint", want: "promptc --color=never lint --help"},
		{name: "--snippets and its value", args: "promptc --snippets always help check", want: "promptc --snippets always check --help"},
		{name: "help alone", args: "promptc help", want: "promptc help"},
		{name: "-C directory named help", args: "promptc -C help build", want: "promptc -C help build"},
		{name: "help as an argument", args: "promptc diff help", want: "promptc diff help"},
		{name: "program name only", args: "promptc", want: "promptc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := strings.Fields(tt.args)
			orig := slices.Clone(args)
			if got, want := cliflag.HelpArgs(newApp(&env{}), args), strings.Fields(tt.want); !slices.Equal(got, want) {
				t.Errorf("cliflag.HelpArgs(%q)\n got %q\nwant %q", orig, got, want)
			}
			if !slices.Equal(args, orig) {
				t.Errorf("helpArgs changed its argument to %q", args)
			}
		})
	}
}

// TestSuggestFlag: a one-letter flag means a letter flag in the other case or the long flags it starts, never a
// letter one edit away; a longer one means the flags it starts, else the closest long name; each flag is named once,
// by one of its names, in the order the flags are defined.
func TestSuggestFlag(t *testing.T) {
	flags := []cli.Flag{
		&cli.BoolFlag{Name: "force"},
		&cli.StringFlag{Name: "format"},
		&cli.BoolFlag{Name: "verbose"},
		&cli.StringFlag{Name: "C"},
		&cli.StringFlag{Name: "color"},
		cli.HelpFlag,
		cli.HelpFlag, // urfave/cli appends it to a command's flags as well
	}
	tests := []struct {
		name, written string
		want          []string
	}{
		{name: "a letter starts one long flag", written: "v", want: []string{"verbose"}},
		{name: "a letter starts two", written: "f", want: []string{"force", "format"}},
		{name: "a letter in the other case", written: "c", want: []string{"C", "color"}},
		{name: "a capital starts a long flag", written: "V", want: []string{"verbose"}},
		{name: "no letter one edit away", written: "q", want: nil},
		{name: "the start of a long flag", written: "verb", want: []string{"verbose"}},
		{name: "the start of two", written: "for", want: []string{"force", "format"}},
		{name: "the start of help, named once", written: "hel", want: []string{"help"}},
		{name: "a misspelling", written: "verbsoe", want: []string{"verbose"}},
		{name: "nothing close", written: "xyzzy", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cliflag.Suggest(tt.written, flags); !slices.Equal(got, tt.want) {
				t.Errorf("cliflag.Suggest(%q) = %q, want %q", tt.written, got, tt.want)
			}
		})
	}
}
