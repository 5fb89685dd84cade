package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/internal/cliflag"
	"github.com/promptc/promptc/internal/enum"
	"github.com/promptc/promptc/provider"

	"github.com/promptc/promptc"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/tokens"
)

// providerFlags are the flags project and simulate share: which API, model, cache mode and tools.
func providerFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "task", Usage: "the task kind `T` (required)"},
		&cli.StringFlag{Name: "provider", Usage: "the API: `P` is " + enum.OrList(provider.Names()) + " (required)"},
		&cli.StringFlag{Name: "model", Usage: "the model `M` whose cache rules apply (default: the provider's default; see docs/providers.md)"},
		&cli.StringFlag{Name: "tools", Value: "text", Usage: "`HOW` the task's [[tool]]s reach the model: text (only as the runbook renders them with {{ tools }}) or native (the provider's tools array)"},
		&cli.StringFlag{Name: "cache", Usage: "the cache `MODE`: explicit (markers), automatic (the provider finds the prefix) or implicit (default: the model's first; see docs/providers.md)"},
		&cli.IntFlag{Name: "max-history-tokens", DefaultText: "no budget", Usage: "keep the history within `N` tokens: whole messages dropped from the oldest, the cut moving in steps of N/4 so that consecutive turns keep their cached prefix (simulate also replays trimming at every turn)"},
		&cli.StringFlag{Name: "ttl", Usage: "the cache lifetime `T` where the model offers a choice: 5m or 1h (anthropic, bedrock, qwen4, gemini explicit), in_memory or 24h (openai), 30m (openai explicit), 24h (gemini explicit)"},
	}
}

// projectTask opens the project and takes the --task task, with the projection options the provider flags choose.
// The token vocabulary loads meanwhile, in the background: it takes about as long as reading and compiling the
// project.
func (e *env) projectTask(c *cli.Context, cmd string) (promptc.Task, projection.Options, error) {
	tok := tokens.New(tokens.O200k)
	tok.Preload()
	var opt projection.Options
	_, t, err := e.openTask(c, cmd, promptc.Options{Counter: tok})
	if err != nil {
		return t, opt, err
	}
	var ch promptc.Choice
	for _, name := range []string{"provider", "model", "tools", "cache", "ttl"} {
		// --provider is required, and --tools has a default; the others are the model's unless given.
		if c.IsSet(name) || name == "provider" || name == "tools" {
			if err := ch.Set(name, c.String(name)); err != nil {
				return t, opt, cmdErr(e, cmd, "--%s: %v", name, err)
			}
		}
	}
	ch.MaxTokens = c.Int("max-tokens") // project's (checked, with a default); simulate has none: 0
	if c.IsSet("max-history-tokens") {
		if ch.MaxHistoryTokens = c.Int("max-history-tokens"); ch.MaxHistoryTokens < 1 {
			return t, opt, cmdErr(e, cmd, "--max-history-tokens must be at least 1")
		}
	}
	opt, err = t.Options(ch)
	var ce *promptc.ChoiceError
	if errors.As(err, &ce) && ce.Field != "" {
		return t, opt, cmdErr(e, cmd, "--%s: %v", ce.Field, err)
	} else if err != nil {
		return t, opt, cmdErr(e, cmd, "%v", err)
	}
	return t, opt, nil
}

func (e *env) requireProvider(c *cli.Context, cmd string) error {
	switch {
	case c.String("task") == "":
		return cmdErr(e, cmd, "--task T is required (see promptc %s --help)", cmd)
	case c.String("provider") == "":
		return cmdErr(e, cmd, "--provider is required: %s", enum.OrList(provider.Names()))
	}
	return nil
}

func projectCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "project",
		Flags: append(providerFlags(),
			&cli.StringFlag{Name: "fixture", Usage: "take values (and turns, and replies) from fixtures/`F`.toml"},
			&cli.StringFlag{Name: "session", Usage: "take session values from `FILE` (JSON or TOML)"},
			&cli.GenericFlag{Name: "turn", Value: new(cliflag.Turn), Usage: "the request of turn `K` (from 1) of the fixture (default: 1)"},
			&cli.StringFlag{Name: "turn-file", Usage: "the request for the turn values in `FILE` (JSON or TOML)"},
			&cli.StringFlag{Name: "history", Usage: "append the messages of `FILE` (JSON Lines: role, content, tool_calls, tool_call_id) to the history"},
			&cli.IntFlag{Name: "max-tokens", Value: 4096, Usage: "Anthropic's max_tokens `N`"},
		),
		Action: e.noArgs(func(c *cli.Context) error {
			const cmd = "project"
			if err := e.requireProvider(c, cmd); err != nil {
				return err
			}
			if err := e.checkSources(c, cmd, true); err != nil {
				return err
			}
			if c.Int("max-tokens") < 1 {
				return cmdErr(e, cmd, "--max-tokens must be at least 1")
			}
			t, opt, err := e.projectTask(c, cmd)
			if err != nil {
				return err
			}
			r, err := e.request(c, cmd, true)
			if err != nil {
				return err
			}
			pr, err := t.Projection(r, opt)
			if err != nil {
				return e.requestError(cmd, err)
			}
			if _, err := e.stdout.Write(pr.Output()); err != nil {
				return err
			}
			_, _ = fmt.Fprintln(e.stderr, pr.Summary())
			return nil
		}),
	}
}

func simulateCommand(e *env) *cli.Command {
	format := report.Formats(projection.SimulationFormats...)
	return &cli.Command{
		Name: "simulate",
		Flags: append(providerFlags(),
			&cli.StringSliceFlag{Name: "fixture", Usage: "replay fixtures/`F`.toml (repeat for several sessions, in order)"},
			&cli.DurationFlag{Name: "gap", DefaultText: "each turn's after, else 30s", Usage: "the time `D` between every two turns (e.g. 4m30s), instead of each turn's after"},
			formatChoiceFlag("write the report as", format),
		),
		Action: e.noArgs(func(c *cli.Context) error {
			const cmd = "simulate"
			if err := e.requireProvider(c, cmd); err != nil {
				return err
			}
			t, opt, err := e.projectTask(c, cmd)
			if err != nil {
				return err
			}
			for _, name := range c.StringSlice("fixture") {
				if name == "" {
					return cmdErr(e, cmd, "--fixture needs a fixture's name (a file name of fixtures/ without .toml)")
				}
			}
			sessions, err := t.Replays(c.StringSlice("fixture")...)
			if err != nil {
				return e.requestError(cmd, err)
			}
			if c.IsSet("gap") {
				if opt.Gap = c.Duration("gap"); opt.Gap <= 0 {
					return cmdErr(e, cmd, "--gap must be a positive duration, such as 30s or 4m30s")
				}
			}
			sim, err := t.Simulate(sessions, opt)
			if err != nil {
				return cmdErr(e, cmd, "%v", err)
			}
			return sim.Write(e.stdout, format.Format)
		}),
	}
}
