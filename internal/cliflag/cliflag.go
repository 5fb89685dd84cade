// Package cliflag is what the promptc command does with urfave/cli's command lines beyond parsing them: flags moved
// ahead of arguments (Reorder), promptc help COMMAND read as COMMAND --help (HelpArgs), and flag errors worded with
// did-you-mean suggestions (Error, InvalidChoice).
package cliflag

import (
	"encoding"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/internal/suggest"
)

// Reorder moves a command's flags ahead of its arguments, each with its value when it takes one, so that
// `promptc explain blocks/a.toml:3 --format json` and `promptc import a.md --out p` work as the usage lines read:
// urfave/cli stops reading flags at the first argument. Which flags take a value comes from the command's own
// definitions (subcommands such as hook install-check included), so every command gets the same rule. A global flag
// (-C, --color, --snippets) written after the command moves ahead of the command's name, where urfave/cli reads it,
// unless the command defines a flag of that name itself: `promptc build -C DIR` is `promptc -C DIR build`. "--" ends
// the flags; a flag the command does not define moves too, so that urfave/cli reports it (unknownFlag words the
// message). args is not modified.
func Reorder(app *cli.App, args []string) []string {
	cmd, top, i := commandAt(app, args)
	if cmd == nil {
		return args
	}
	own := takesValue(cmd.Flags)
	global := takesValue(app.Flags)
	var globals, flags, positional []string
	rest := args[i+1:]
	for k := 0; k < len(rest); k++ {
		tok := rest[k]
		switch {
		case tok == "--":
			positional = append(positional, rest[k:]...)
			k = len(rest)
		case strings.HasPrefix(tok, "-") && tok != "-":
			name, _, joined := strings.Cut(strings.TrimLeft(tok, "-"), "=")
			to, takes := &flags, own[name]
			if _, mine := own[name]; !mine {
				if g, ok := global[name]; ok && name != "help" && name != "h" {
					to, takes = &globals, g
				}
			}
			*to = append(*to, tok)
			if takes && !joined && k+1 < len(rest) {
				k++
				*to = append(*to, rest[k])
			}
		default:
			positional = append(positional, tok)
		}
	}
	return slices.Concat(args[:top], globals, args[top:i+1], flags, positional)
}

// takesValue maps every name of flags to whether the flag takes a value.
func takesValue(flags []cli.Flag) map[string]bool {
	m := map[string]bool{}
	for _, f := range flags {
		v := false
		if df, ok := f.(cli.DocGenerationFlag); ok {
			v = df.TakesValue()
		}
		for _, n := range f.Names() {
			m[n] = v
		}
	}
	return m
}

// commandAt finds the command args run: the command (a subcommand such as hook install, not its parent), the index
// of the first word naming it (top: "hook") and of the last (i: "install"). cmd is nil when args name no command
// that runs: none, an unknown one, or a parent not followed by one of its subcommands (left for it to report).
func commandAt(app *cli.App, args []string) (cmd *cli.Command, top, i int) {
	top = commandIndex(app.Flags, args)
	if top >= len(args) {
		return nil, top, top
	}
	cmd, i = findCommand(app.Commands, args[top]), top
	// A subcommand's name is the first word after its parent's; hook's flags belong to its subcommands.
	for cmd != nil && len(cmd.Subcommands) > 0 {
		if i+1 >= len(args) {
			return nil, top, i
		}
		cmd, i = findCommand(cmd.Subcommands, args[i+1]), i+1
	}
	return cmd, top, i
}

// CommandWords is the command args run as messages name it ("build", "hook install"), "" for none.
func CommandWords(app *cli.App, args []string) string {
	cmd, top, i := commandAt(app, args)
	if cmd == nil {
		return ""
	}
	return strings.Join(args[top:i+1], " ")
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// undefinedFlag is the start of the error urfave/cli (through Go's flag package) returns for a flag the command does
// not define; the flag follows it as written, dashes included.
const undefinedFlag = "flag provided but not defined: "

// Error words a flag error of a command whose flags are flags (promptc's own flags for none): an unknown flag is
// named quoted, with the flags it may have meant (Suggest), as unknown commands are; any other error is kept as
// urfave/cli words it.
func Error(err error, flags []cli.Flag) string {
	written, ok := strings.CutPrefix(err.Error(), undefinedFlag)
	if !ok {
		return err.Error()
	}
	// Go's flag package names the flag with one dash however it was written; promptc's docs write --name.
	name, _, _ := strings.Cut(strings.TrimLeft(written, "-"), "=")
	msg := fmt.Sprintf("unknown flag %q", Dashed(name))
	if s := Suggest(name, append([]cli.Flag{cli.HelpFlag}, flags...)); len(s) > 0 {
		q := make([]string, len(s))
		for i, n := range s {
			q[i] = strconv.Quote(Dashed(n))
		}
		msg += " (did you mean " + OrList(q) + "?)"
	}
	return msg
}

// Suggest returns the names of the flags an unknown flag name (written without its dashes) may have meant, each
// flag once, in the order flags define them. A one-letter name means a flag of that letter in the other case (-c for
// -C), or the flags whose long name starts with it (-v for --verbose): an edit distance between one-letter names says
// nothing (-v is one edit from -h). A longer name means the flags it starts (--verb for --verbose), else the closest
// long name within an edit distance of 2 (--tsk for --task).
func Suggest(name string, flags []cli.Flag) []string {
	one := utf8.RuneCountInString(name) == 1
	means := func(n string) bool {
		switch {
		case n == name:
			return false
		case one && len(n) == 1:
			return strings.EqualFold(n, name)
		case one:
			return strings.HasPrefix(strings.ToLower(n), strings.ToLower(name))
		default:
			return len(n) > 1 && strings.HasPrefix(n, name)
		}
	}
	var out, long []string
	seen := map[string]bool{}
	for _, f := range flags {
		for _, n := range f.Names() {
			if len(n) > 1 {
				long = append(long, n)
			}
			if means(n) && !seen[n] {
				// One name per flag: its aliases are not other meanings.
				for _, a := range f.Names() {
					seen[a] = true
				}
				out = append(out, n)
			}
		}
	}
	if len(out) > 0 || one {
		return out
	}
	if s := suggest.Suggest(name, long); s != "" {
		return []string{s}
	}
	return nil
}

// Dashed is a flag's name as the docs write it: -C for a one-letter name, --name otherwise.
func Dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// Choice is a flag holding a value of one of the library's closed sets (blocks.When, report.FormatChoice):
// the value parses itself, so the command never compares the flag's text. Its default is shown
// quoted in help, as a string flag's is.
func Choice(name string, value cli.Generic, usage string) cli.Flag {
	return &cli.GenericFlag{Name: name, Value: value, DefaultText: strconv.Quote(value.String()), Usage: usage}
}

// InvalidChoice words the error of a Choice whose value its Set refused, as "--name why" (why is Set's
// message: `must be text or json, not "yaml"`): the choices are listed already, so no pointer to --help follows.
// Go's flag package words such an error `invalid value "yaml" for flag -name: why`. ok is false for any other error
// and for the value errors of other flags (a turn number's parse error), which Error words: a choice's value
// is a closed set, which implements encoding.TextUnmarshaler.
func InvalidChoice(err error, flags []cli.Flag) (msg string, ok bool) {
	rest, ok := strings.CutPrefix(err.Error(), "invalid value ")
	if !ok {
		return "", false
	}
	quoted, err2 := strconv.QuotedPrefix(rest)
	if err2 != nil {
		return "", false
	}
	rest, ok = strings.CutPrefix(rest[len(quoted):], " for flag -")
	if !ok {
		return "", false
	}
	name, why, ok := strings.Cut(rest, ": ")
	if !ok {
		return "", false
	}
	for _, f := range flags {
		if g, generic := f.(*cli.GenericFlag); generic && g.Name == name {
			if _, isChoice := g.Value.(encoding.TextUnmarshaler); isChoice {
				return Dashed(name) + " " + why, true
			}
		}
	}
	return "", false
}

// HelpArgs rewrites promptc [GLOBAL FLAGS] help ARGS... as promptc [GLOBAL FLAGS] ARGS... --help when there are
// ARGS; any other command line is returned as it is.
func HelpArgs(app *cli.App, args []string) []string {
	i := commandIndex(app.Flags, args)
	if i+1 >= len(args) || args[i] != "help" {
		return args
	}
	return append(slices.Concat(args[:i], args[i+1:]), "--help")
}

// commandIndex is the index in args of the command's name: the first argument after the program name and the global
// flags (globals: those of them that take a value take the next argument, unless given as --flag=value). It is
// len(args) when there is none.
func commandIndex(globals []cli.Flag, args []string) int {
	takes := takesValue(globals)
	i := 1
	for i < len(args) && len(args[i]) > 0 && args[i][0] == '-' {
		if name, _, joined := strings.Cut(strings.TrimLeft(args[i], "-"), "="); takes[name] && !joined {
			i++
		}
		i++
	}
	return min(i, len(args))
}

// OrList joins choices as "a, b or c".
func OrList(choices []string) string {
	if len(choices) == 1 {
		return choices[0]
	}
	return strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
}

// QuoteAll quotes each argument, for a message that lists them.
func QuoteAll(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = fmt.Sprintf("%q", a)
	}
	return strings.Join(q, ", ")
}

// Turn is the value of render's and project's --turn. An IntFlag would print "(default: 0)" in the help, though turns count
// from 1 and without the flag render prints the runbook: String is empty until the flag is set, so no default shows.
type Turn struct {
	N   int
	set bool
}

// Set parses the turn number.
func (t *Turn) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("parse error")
	}
	t.N, t.set = n, true
	return nil
}

// String is the number, "" until it is set.
func (t *Turn) String() string {
	if !t.set {
		return ""
	}
	return strconv.Itoa(t.N)
}
