package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/tokens"
)

// providerFlags are the flags project and simulate share: which API, model, cache mode and tools.
func providerFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "task", Usage: "the task kind `T` (required)"},
		&cli.StringFlag{Name: "provider", Usage: "the API: `P` is " + providerChoices() + " (required)"},
		&cli.StringFlag{Name: "model", Usage: "the model `M` whose cache rules apply (default: the provider's default; see docs/providers.md)"},
		&cli.StringFlag{Name: "tools", Value: "text", Usage: "`HOW` the task's [[tool]]s reach the model: text (only as the runbook renders them with {{ tools }}) or native (the provider's tools array)"},
		&cli.StringFlag{Name: "cache", Usage: "the cache `MODE`: explicit (markers), automatic (the provider finds the prefix) or implicit (default: the model's first; see docs/providers.md)"},
		&cli.IntFlag{Name: "max-history-tokens", DefaultText: "no budget", Usage: "keep the history within `N` tokens: whole messages dropped from the oldest, the cut moving in steps of N/4 so that consecutive turns keep their cached prefix (simulate also replays trimming at every turn)"},
		&cli.StringFlag{Name: "ttl", Usage: "the cache lifetime `T` where the model offers a choice: 5m or 1h (anthropic, bedrock, qwen4, gemini explicit), in_memory or 24h (openai), 30m (openai explicit), 24h (gemini explicit)"},
	}
}

func providerChoices() string {
	return strings.Join(blocks.Providers[:len(blocks.Providers)-1], ", ") + " or " + blocks.Providers[len(blocks.Providers)-1]
}

// loadForProjection loads the project and returns it with the options the provider flags choose. The token
// vocabulary loads meanwhile, in the background: it takes about as long as reading and compiling the project.
func (e *env) loadForProjection(c *cli.Context, cmd string) (*assemble.Program, projection.Options, error) {
	tok := tokens.New(tokens.O200k)
	tok.Preload()
	prog, err := e.load()
	if err != nil {
		return nil, projection.Options{}, err
	}
	opt, err := e.projectionOptions(c, cmd, prog)
	opt.Counter = tok
	return prog, opt, err
}

// projectionOptions checks the provider flags and returns the options they choose.
func (e *env) projectionOptions(c *cli.Context, cmd string, prog *assemble.Program) (projection.Options, error) {
	var opt projection.Options
	task := c.String("task")
	if err := blocks.CheckTask(task, prog.Project.Tasks); err != nil {
		return opt, cmdErr(e, cmd, "%v", err)
	}
	p, err := projection.ParseProvider(c.String("provider"))
	if err != nil {
		return opt, cmdErr(e, cmd, "--provider: %v", err)
	}
	cat, err := projection.NewCatalog(prog.Project.Models)
	if err != nil {
		return opt, cmdErr(e, cmd, "%v", err)
	}
	if opt.Model, err = cat.Model(p, c.String("model")); err != nil {
		return opt, cmdErr(e, cmd, "--model: %v", err)
	}
	var tools projection.ToolsMode
	if err := tools.Set(c.String("tools")); err != nil {
		return opt, cmdErr(e, cmd, "--tools: %v", err)
	}
	opt.Tools = tools.Tools(prog.Project, task)
	if c.IsSet("cache") {
		if err := opt.Cache.Set(c.String("cache")); err != nil {
			return opt, cmdErr(e, cmd, "--cache: %v", err)
		}
	}
	if c.IsSet("ttl") {
		if err := opt.TTL.Set(c.String("ttl")); err != nil {
			return opt, cmdErr(e, cmd, "--ttl: %v", err)
		}
	}
	if c.IsSet("max-history-tokens") {
		if opt.MaxHistoryTokens = c.Int("max-history-tokens"); opt.MaxHistoryTokens < 1 {
			return opt, cmdErr(e, cmd, "--max-history-tokens must be at least 1")
		}
	}
	if err := opt.Check(); err != nil {
		return opt, cmdErr(e, cmd, "%v", err)
	}
	return opt, nil
}

func (e *env) requireProvider(c *cli.Context, cmd string) error {
	switch {
	case c.String("task") == "":
		return cmdErr(e, cmd, "--task T is required (see promptc %s --help)", cmd)
	case c.String("provider") == "":
		return cmdErr(e, cmd, "--provider is required: %s", providerChoices())
	}
	return nil
}

func projectCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "project",
		Usage: "print the request body a client sends for one turn, with cache markers placed",
		UsageText: "promptc project --task T --provider P [--model M] [--fixture F | --session FILE]\n" +
			"    [--turn K | --turn-file FILE] [--history FILE] [--tools text|native] [--cache explicit|automatic|implicit] [--ttl T]\n" +
			"    [--max-history-tokens N] [--max-tokens N]",
		Description: "Prints the JSON body of the request for one turn (no credentials, no network): the runbook as the system\n" +
			"prompt, split where its scope steps up, with cache markers where the provider's rules let them pay; the\n" +
			"history; the turn's message last. With --fixture F --turn K, the history is turns 1 to K-1 of F, each\n" +
			"followed by its assistant reply; --history FILE (JSON Lines) is appended after it. Without --turn or\n" +
			"--turn-file, the turn is turn 1 of the fixture. A summary of the markers goes to stderr.",
		Flags: append(providerFlags(),
			&cli.StringFlag{Name: "fixture", Usage: "take values (and turns, and replies) from fixtures/`F`.toml"},
			&cli.StringFlag{Name: "session", Usage: "take session values from `FILE` (JSON or TOML)"},
			&cli.GenericFlag{Name: "turn", Value: new(turnNumber), Usage: "the request of turn `K` (from 1) of the fixture (default: 1)"},
			&cli.StringFlag{Name: "turn-file", Usage: "the request for the turn values in `FILE` (JSON or TOML)"},
			&cli.StringFlag{Name: "history", Usage: "append the messages of `FILE` (JSON Lines: role, content, tool_calls, tool_call_id) to the history"},
			&cli.IntFlag{Name: "max-tokens", Value: 4096, Usage: "Anthropic's max_tokens `N`"},
		),
		OnUsageError: commandUsageError(e),
		Action: func(c *cli.Context) error {
			const cmd = "project"
			if c.NArg() > 0 {
				return usageErr(e, "project takes no arguments, got %q", c.Args().First())
			}
			if err := e.requireProvider(c, cmd); err != nil {
				return err
			}
			switch {
			case c.IsSet("fixture") && c.IsSet("session"):
				return cmdErr(e, cmd, "--fixture and --session both give session values; choose one")
			case c.IsSet("turn") && c.IsSet("turn-file"):
				return cmdErr(e, cmd, "--turn and --turn-file both give the turn; choose one")
			case c.IsSet("turn") && c.IsSet("session"):
				return cmdErr(e, cmd, "--turn K picks a turn of a fixture; with --session, give the turn values with --turn-file")
			case c.IsSet("session") && !c.IsSet("turn-file"):
				return cmdErr(e, cmd, "with --session, give the turn's values with --turn-file FILE")
			case c.Int("max-tokens") < 1:
				return cmdErr(e, cmd, "--max-tokens must be at least 1")
			}
			prog, opt, err := e.loadForProjection(c, cmd)
			if err != nil {
				return err
			}
			opt.MaxTokens = c.Int("max-tokens")
			in, err := e.projectInput(c, cmd, prog)
			if err != nil {
				return err
			}
			pr, err := projection.Project(in, opt)
			if err != nil {
				return cmdErr(e, cmd, "%v", err)
			}
			if _, err := e.stdout.Write(pr.Output()); err != nil {
				return err
			}
			_, _ = fmt.Fprintln(e.stderr, pr.Summary())
			return nil
		},
	}
}

// projectInput reads the files and the fixture the flags name into the request projection.NewInput renders.
func (e *env) projectInput(c *cli.Context, cmd string, prog *assemble.Program) (projection.Input, error) {
	r := projection.Request{Task: c.String("task"), Turn: 1}
	var err error
	if c.IsSet("session") {
		if r.SessionFile, err = e.valuesFile(cmd, c.String("session")); err != nil {
			return projection.Input{}, err
		}
	} else if r.Fixture, err = e.fixture(cmd, prog, r.Task, c.String("fixture"), c.IsSet("fixture")); err != nil {
		return projection.Input{}, err
	}
	if c.IsSet("turn-file") {
		if r.TurnFile, err = e.valuesFile(cmd, c.String("turn-file")); err != nil {
			return projection.Input{}, err
		}
		r.Turn = 0
	} else if c.IsSet("turn") {
		r.Turn = c.Generic("turn").(*turnNumber).n
	}
	if name := c.String("history"); name != "" {
		data, err := readFileLimited(e.path(name), projection.MaxHistoryBytes+1)
		if err != nil {
			return projection.Input{}, cmdErr(e, cmd, "cannot read --history file %s: %v", blocks.QuoteName(name), e.pathError(name, err))
		}
		r.History = &assemble.ValuesFile{Name: name, Data: data}
	}
	in, err := projection.NewInput(prog, r)
	if err != nil {
		return in, e.fail(err, func(err error) error { return cmdErr(e, cmd, "%v", err) })
	}
	return in, nil
}

func simulateCommand(e *env) *cli.Command {
	format := report.Formats(projection.SimulationFormats...)
	return &cli.Command{
		Name:  "simulate",
		Usage: "replay fixtures' turns as sessions and report cache reads, writes and cost per turn",
		UsageText: "promptc simulate --task T --provider P [--model M] [--tools text|native] [--cache MODE] [--ttl T]\n" +
			"    [--max-history-tokens N] [--gap D] [--fixture F...] [--format text|json]",
		Description: "Replays each fixture's turns as one session (fixtures in the order given; by default every fixture that\n" +
			"renders T and has turns, by name), with the assistant replies of its [[turn]] tables, and counts for\n" +
			"each request the input tokens read from the cache, written to it and sent uncached, under the model's\n" +
			"rules, and the cost relative to sending everything uncached. The same sessions are shown under two naive\n" +
			"layouts beside promptc's: volatile-first (the turn's message before the runbook) and rewrite (the history\n" +
			"replaced by a fresh summary every turn), and with --max-history-tokens a client trimming at every turn.\n" +
			"Cache entries expire by their lifetime from their last use: the time\n" +
			"between turns is each [[turn]]'s after (default 30s), or --gap for every turn. Every lifetime the model\n" +
			"offers is costed for promptc's layout, and the cheapest named. Token counts are o200k_base estimates.",
		Flags: append(providerFlags(),
			&cli.StringSliceFlag{Name: "fixture", Usage: "replay fixtures/`F`.toml (repeat for several sessions, in order)"},
			&cli.DurationFlag{Name: "gap", DefaultText: "each turn's after, else 30s", Usage: "the time `D` between every two turns (e.g. 4m30s), instead of each turn's after"},
			formatChoiceFlag("write the report as", format),
		),
		OnUsageError: commandUsageError(e),
		Action: func(c *cli.Context) error {
			const cmd = "simulate"
			if c.NArg() > 0 {
				return usageErr(e, "simulate takes no arguments, got %q", c.Args().First())
			}
			if err := e.requireProvider(c, cmd); err != nil {
				return err
			}
			prog, opt, err := e.loadForProjection(c, cmd)
			if err != nil {
				return err
			}
			sessions, err := e.sessions(c, cmd, prog)
			if err != nil {
				return err
			}
			if c.IsSet("gap") {
				if opt.Gap = c.Duration("gap"); opt.Gap <= 0 {
					return cmdErr(e, cmd, "--gap must be a positive duration, such as 30s or 4m30s")
				}
			}
			sim, err := projection.Simulate(sessions, opt)
			if err != nil {
				return cmdErr(e, cmd, "%v", err)
			}
			return sim.Write(e.stdout, format.Format)
		},
	}
}

// sessions renders the sessions simulate replays.
func (e *env) sessions(c *cli.Context, cmd string, prog *assemble.Program) ([]projection.Replay, error) {
	task := c.String("task")
	var fixtures []*blocks.Fixture
	if names := c.StringSlice("fixture"); len(names) > 0 {
		for _, name := range names {
			f, err := e.fixture(cmd, prog, task, name, true)
			if err != nil {
				return nil, err
			}
			if len(f.Turns) == 0 {
				return nil, cmdErr(e, cmd, "fixture %q has no [[turn]] entries: a session to replay needs turns", f.Name)
			}
			fixtures = append(fixtures, f)
		}
	} else {
		fixtures = projection.ReplayFixtures(prog.Project, task)
		if len(fixtures) == 0 {
			return nil, cmdErr(e, cmd, "no fixture renders task %q with [[turn]] entries: add one to replay", task)
		}
	}
	var out []projection.Replay
	for _, f := range fixtures {
		s, err := projection.FixtureReplay(prog, task, f)
		if err != nil {
			return nil, e.fail(err, nil)
		}
		out = append(out, s)
	}
	return out, nil
}
