// Command promptc compiles prompt blocks written in TOML into byte-exact runbooks and per-turn messages.
package main

import (
	"cmp"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/guard"
	"github.com/promptc/promptc/internal/cliflag"
	"github.com/promptc/promptc/internal/enum"
	"github.com/promptc/promptc/internal/gc"
	"github.com/promptc/promptc/internal/shell"
	"github.com/promptc/promptc/internal/suggest"
	buildversion "github.com/promptc/promptc/internal/version"
	"github.com/promptc/promptc/source"
)

// version and revision are set at link time by make build and make install (-ldflags "-X main.version=… -X
// main.revision=…", from git; see the Makefile); otherwise --version reports what the build information holds (see
// internal/version.Text).
var version, revision = "", ""

// Exit codes (docs/reference.md#exit-codes-and-diagnostics).
const (
	exitOK      = 0
	exitChanged = 1
	exitInvalid = 2
)

func main() {
	gc.CollectLate()
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// exitError carries an exit status out of a command; its message, if any, has been printed already.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// env is what every command needs: where the project is and where to write.
type env struct {
	stdout, stderr io.Writer
	// dir is the directory relative paths in flags are resolved against: the -C directory, or the working directory.
	dir  string
	wd   string // the working directory, where the reader of a report stands
	root string // the project root, found on first use
	cdir string // the -C argument as given, to repeat it in suggested commands
	// command is the command being run as the user names it ("build", "hook install"), to suggest running it again.
	command string
	// globals are promptc's own flags, which every command also takes after its name (cliflag.Reorder moves them).
	globals []cli.Flag

	colorMode, snippetMode when // the --color and --snippets flags
	unknownCommand         bool // the command line named no known command: a usage error
	annotate               bool // diagnostics also become GitHub Actions annotations (check sets it)
}

// run is the whole command line: it never calls os.Exit, so tests can drive it.
func run(args []string, stdout, stderr io.Writer) int {
	e := &env{stdout: stdout, stderr: stderr}
	app := newApp(e)
	args = cliflag.Reorder(app, cliflag.HelpArgs(app, args))
	e.command = cliflag.CommandWords(app, args)
	err := app.Run(args)
	var ee exitError
	switch {
	case err == nil && e.unknownCommand:
		return exitInvalid
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	default:
		// Nowhere to report a failed write to stderr; the exit status still says something went wrong.
		_, _ = fmt.Fprintf(stderr, "promptc: %v\n", err)
		return exitInvalid
	}
}

func newApp(e *env) *cli.App {
	e.globals = []cli.Flag{
		&cli.StringFlag{Name: "C", Usage: "run in `DIR`: the project root (default: the nearest ancestor holding promptc.toml)"},
		cliflag.Choice("color", &e.colorMode, "colour reports `WHEN`: auto (on a terminal, unless NO_COLOR is set), always or never"),
		cliflag.Choice("snippets", &e.snippetMode, "show the source line under each diagnostic `WHEN`: auto (when stderr is a terminal), always or never"),
		// urfave/cli adds --help itself only when no command is named help.
		cli.HelpFlag,
	}
	info, _ := debug.ReadBuildInfo()
	cli.VersionPrinter = func(c *cli.Context) {
		// urfave/cli's version printer cannot return an error; a failed write of the version leaves nothing to do.
		_, _ = io.WriteString(c.App.Writer, buildversion.Text(version, revision, info))
	}
	app := &cli.App{
		Name:            "promptc",
		Usage:           "compile prompt blocks into byte-exact runbooks and per-turn messages",
		UsageText:       "promptc [-C DIR] COMMAND [options]",
		Version:         buildversion.Module(version, info),
		Writer:          e.stdout,
		ErrWriter:       e.stderr,
		Flags:           e.globals,
		HideHelpCommand: true,
		Before: func(c *cli.Context) error {
			// The working directory is where a report's reader stands: without it, reports name files from the root.
			wd, wdErr := os.Getwd()
			e.wd, e.dir = wd, wd
			if dir := c.String("C"); dir != "" {
				abs, err := filepath.Abs(dir)
				if err != nil {
					return usageErr(e, "-C %s: %v", source.QuoteName(dir), err)
				}
				switch err := blocks.CheckRoot(abs); {
				case errors.Is(err, blocks.ErrNoManifest):
					return usageErr(e, "-C %s: no promptc.toml there; -C names a project root", source.QuoteName(dir))
				case err != nil:
					return usageErr(e, "-C %s: no such directory", source.QuoteName(dir))
				}
				e.dir, e.root, e.cdir = abs, abs, dir
				return nil
			}
			if wdErr != nil {
				return usageErr(e, "cannot read the working directory: %v", wdErr)
			}
			return nil
		},
		Commands: []*cli.Command{
			initCommand(e),
			importCommand(e),
			buildCommand(e),
			renderCommand(e),
			checkCommand(e),
			diffCommand(e),
			logCommand(e),
			lintCommand(e),
			statsCommand(e),
			hookCommand(e),
			installCommand(e),
			uninstallCommand(e),
			projectCommand(e),
			simulateCommand(e),
			usageCommand(e),
			missCommand(e),
			explainCommand(e),
			serveCommand(e),
			schemaCommand(e),
			lspCommand(e),
			helpCommand(e),
		},
		// urfave/cli would otherwise call os.Exit for errors that carry an exit code.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			if msg, ok := cliflag.InvalidChoice(err, c.App.Flags); ok {
				return usageErr(e, "%s", msg)
			}
			return usageErr(e, "%s (see promptc --help)", cliflag.Error(err, c.App.Flags))
		},
		CommandNotFound: func(c *cli.Context, name string) {
			e.unknownCommand = true
			// Exit status 2 follows whether or not this message could be written.
			_, _ = fmt.Fprintf(e.stderr, "promptc: unknown command %q%s (see promptc --help)\n", name, suggest.DidYouMean(name, commandNames(c.App.Commands)))
		},
	}
	e.describe(app.Commands, "")
	return app
}

// commandNames are the names of cmds, for a suggestion.
func commandNames(cmds []*cli.Command) []string {
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	return names
}

// usageErr prints a usage problem and returns exit status 2.
func usageErr(e *env, format string, args ...any) error {
	// A failed write to stderr is not reported: there is nowhere left to report it, and the exit status says it all.
	_, _ = fmt.Fprintf(e.stderr, "promptc: "+format+"\n", args...)
	return exitError{exitInvalid}
}

// cmdErr is usageErr for a message about command cmd: "promptc CMD: …".
func cmdErr(e *env, cmd, format string, args ...any) error {
	return usageErr(e, "%s: "+format, append([]any{cmd}, args...)...)
}

// commandName is the command c runs, as messages name it: "render", or "hook install-check" for a subcommand
// (urfave/cli's HelpName is the whole command line, program name first).
func commandName(c *cli.Context) string {
	return strings.TrimPrefix(c.Command.HelpName, c.App.Name+" ")
}

// usageError is the OnUsageError of every command (describe sets it): a flag error exits with status 2, naming the
// command as the user wrote it ("render", "hook install"). A value a closed set refused lists the choices already;
// any other error points at the command's help.
func (e *env) usageError(c *cli.Context, err error, _ bool) error {
	cmd, flags := commandName(c), c.Command.Flags
	if msg, ok := cliflag.InvalidChoice(err, flags); ok {
		return cmdErr(e, cmd, "%s", msg)
	}
	// A global flag is taken after the command too: a misspelt one is suggested as the command's own are.
	return cmdErr(e, cmd, "%s (see promptc %s --help)", cliflag.Error(err, slices.Concat(flags, e.globals)), cmd)
}

// path resolves a path given on the command line.
func (e *env) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(e.dir, p)
}

// pathError is err, an error opening name (a path given on the command line), without the operation and path an
// *fs.PathError adds, for a message that names the path already. A relative name that does not exist under -C says
// where it was looked for: the -C directory's, as git -C and make -C read it, not the working directory's, which a
// shell glob such as logs/*.jsonl was expanded from.
func (e *env) pathError(name string, err error) error {
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		err = pe.Err
	}
	if e.cdir == "" || name == "-" || filepath.IsAbs(name) || !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return fmt.Errorf("%w (read as %s: under -C %s, a relative path is relative to that directory, as with git -C)",
		err, source.QuoteName(e.shown(name)), source.QuoteName(e.cdir))
}

// projectRoot returns the -C directory, or the nearest ancestor of the working directory holding promptc.toml.
func (e *env) projectRoot() (string, error) {
	if e.root != "" {
		return e.root, nil
	}
	root, err := blocks.FindRoot(e.dir)
	if err != nil {
		if hint := blocks.BelowHint(e.dir, "run promptc -C %s "+strings.ReplaceAll(cmp.Or(e.command, "COMMAND"), "%", "%%")); hint != "" {
			return "", usageErr(e, "%v%s", err, hint)
		}
		return "", usageErr(e, "%v: run promptc inside a project, or pass -C DIR", err)
	}
	e.root = root
	return root, nil
}

// open opens the project through the pipeline (promptc.Open), printing every diagnostic on failure.
func (e *env) open(opt promptc.Options) (*promptc.Pipeline, error) {
	root, err := e.projectRoot()
	if err != nil {
		return nil, err
	}
	pl, err := promptc.Open(root, opt)
	if err != nil {
		return nil, e.fail(err, nil)
	}
	return pl, nil
}

// load opens the project with the default token counter.
func (e *env) load() (*promptc.Pipeline, error) { return e.open(promptc.Options{}) }

// invocation is how the user ran promptc, to suggest a follow-up command: "promptc -C examples/tracker".
func (e *env) invocation() string {
	if e.cdir != "" {
		return "promptc -C " + shell.Quote(e.cdir)
	}
	return "promptc"
}

// colorOn reports whether output written to w (stdout's report, stderr's snippets) may be coloured: always with
// --color=always, never with --color=never; with --color=auto (the default), when w is a terminal and NO_COLOR is
// unset or empty (https://no-color.org: a command-line flag overrides it).
func (e *env) colorOn(w io.Writer) bool {
	return e.colorMode.On(os.Getenv("NO_COLOR") == "" && isTerminal(w))
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// diagnostics prints diagnostics, one per line (with the source line under each when snippets are on), and returns
// exit status 2. For a command that annotates (check), in GitHub Actions they are also written on stdout as ::error
// annotations on the sources.
func (e *env) diagnostics(diags source.Diagnostics) error {
	// As in usageErr: a failed write to stderr has nowhere to go; the exit status still says invalid input.
	if e.snippets() {
		_ = source.SnippetWriter{Source: assemble.SourceFiles(e.root, e.dir), Color: e.colorOn(e.stderr)}.Write(e.stderr, diags)
	} else {
		_, _ = io.WriteString(e.stderr, diags.String())
	}
	if e.annotate && guard.InGitHubActions() {
		if err := guard.WriteAnnotations(e.stdout, guard.RepoPrefix(e.root), diags); err != nil {
			return err
		}
	}
	return exitError{exitInvalid}
}

// fail reports a library error: when err holds source.Diagnostics (wrapped or not) they are printed as diagnostics
// prints them, with exit status 2; any other error is other's to report (nil: err is returned as it is, for run to
// print).
func (e *env) fail(err error, other func(error) error) error {
	var diags source.Diagnostics
	if errors.As(err, &diags) {
		return e.diagnostics(diags)
	}
	if other == nil {
		return err
	}
	return other(err)
}

// snippets reports whether diagnostics show their source line: always, never, or (auto, the default) when stderr
// is a terminal. A pipe or a CI log gets the plain path:line:col: message lines unless asked.
func (e *env) snippets() bool { return e.snippetMode.On(isTerminal(e.stderr)) }

// noArgs is action, run only when the command line gives the command no arguments; any argument is a usage error.
func (e *env) noArgs(action cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		if err := e.refuseArgs(c); err != nil {
			return err
		}
		return action(c)
	}
}

// refuseArgs is the usage error of a command given an argument it does not take ("hook install takes no arguments").
func (e *env) refuseArgs(c *cli.Context) error {
	if c.NArg() > 0 {
		return usageErr(e, "%s takes no arguments, got %q", commandName(c), c.Args().First())
	}
	return nil
}

// when is a mode that turns a feature of the output on or off: always, never, or (whenAuto, the zero value) as the
// output's destination suggests. The --color and --snippets flags hold one; it implements flag.Value and
// encoding.TextUnmarshaler (what cliflag.InvalidChoice knows a choice by), so that such a flag cannot hold anything
// else.
type when uint8

const (
	// whenAuto decides from where the output goes (a terminal, NO_COLOR): see On.
	whenAuto when = iota
	// whenAlways turns the feature on.
	whenAlways
	// whenNever turns it off.
	whenNever
)

var whens = enum.New[when]("When", "mode", "auto", "always", "never").MustBe()

// String is the mode as the flag takes it: auto, always or never.
func (w when) String() string { return whens.String(w) }

// Set parses s, which must be auto, always or never (exactly, in lower case). On error w is unchanged and the
// message reads after the flag's name: `must be auto, always or never, not "sometimes"`.
func (w *when) Set(s string) error { return whens.Set(w, s) }

// UnmarshalText is Set, for cliflag.InvalidChoice.
func (w *when) UnmarshalText(text []byte) error { return w.Set(string(text)) }

// On reports whether the feature is on: whenAlways and whenNever say so; whenAuto leaves it to auto, what the destination
// suggests (for colour, a terminal with NO_COLOR unset).
func (w when) On(auto bool) bool {
	switch w {
	case whenAlways:
		return true
	case whenNever:
		return false
	}
	return auto
}

// helpText holds what each command's --help says, a file per command: help/NAME.txt for a command, help/hook-NAME.txt
// for a subcommand of hook. Its first line is the summary promptc --help lists; the lines after it, up to a blank
// line, are the usage lines; the rest is the description. Prose kept as prose, outside Go strings, is read and
// reviewed as what users see; TestHelpFiles holds the files and the commands to one another.
//
//go:embed help/*.txt
var helpText embed.FS

// describe sets the summary, usage lines and description of every command in cmds (and their subcommands) from its
// help file, and its flag errors' handler; prefix is the parent command's file name and a dash ("hook-"), or "" at
// the top.
func (e *env) describe(cmds []*cli.Command, prefix string) {
	for _, c := range cmds {
		name := prefix + c.Name
		data, err := helpText.ReadFile("help/" + name + ".txt")
		if err == nil { // a command without a file shows no help text; TestHelpFiles fails for it
			head, desc, _ := strings.Cut(strings.TrimSuffix(string(data), "\n"), "\n\n")
			c.Usage, c.UsageText, _ = strings.Cut(head, "\n")
			c.Description = desc
		}
		c.OnUsageError = e.usageError
		e.describe(c.Subcommands, name+"-")
	}
}

// helpCommand is promptc help [COMMAND [SUBCOMMAND]]. With no argument it prints promptc --help. With arguments,
// run has already rewritten the command line to COMMAND [SUBCOMMAND] --help (helpArgs), so that the text is the one
// --help prints: urfave/cli completes a command's help (its subcommands, --help itself) only while it runs it. Its
// own help command is hidden (HideHelpCommand) because it would also add a help subcommand to hook and answer an
// unknown topic with exit status 3.
func helpCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "help",
		Action: func(c *cli.Context) error {
			return cli.ShowAppHelp(c)
		},
	}
}
