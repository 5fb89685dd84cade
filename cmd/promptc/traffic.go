package main

import (
	"github.com/promptc/promptc/guard"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/usage"
)

func trafficFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "traffic", Usage: "price the change at the traffic of usage log `FILE` (repeatable; instead of promptc.toml's [traffic])"}
}

// traffic reads the usage logs --traffic names into per-task traffic (nil when the flag is not given, so that the
// manifest's [traffic] applies); buckets that give no rate are named on stderr.
func (e *env) traffic(c *cli.Context, cmd string) ([]projection.Traffic, error) {
	files := c.StringSlice("traffic")
	if len(files) == 0 {
		return nil, nil
	}
	tally := usage.NewTally()
	if err := e.readLogs(cmd, "--traffic ", tally, files); err != nil {
		return nil, err
	}
	_, cat, err := e.usageCatalog(cmd, false)
	if err != nil {
		return nil, err
	}
	traffic, skipped := tally.Traffic(cat)
	for _, s := range skipped {
		_, _ = e.stderr.Write([]byte("promptc " + cmd + ": --traffic: " + s + "\n"))
	}
	if traffic == nil {
		traffic = []projection.Traffic{}
	}
	return traffic, nil
}

// guardOptions are what check, diff and log share: the project root, and the guard's options from --tokenizer and
// --traffic (read only where a change is priced: not for check --update).
func (e *env) guardOptions(c *cli.Context, cmd string) (string, guard.Options, error) {
	var opt guard.Options
	tok, err := e.counter(c)
	if err != nil {
		return "", opt, err
	}
	root, err := e.projectRoot()
	if err != nil {
		return "", opt, err
	}
	opt.Counter = tok
	if !c.Bool("update") {
		opt.Traffic, err = e.traffic(c, cmd)
	}
	return root, opt, err
}

// reader is who reads a report: the working directory promptc ran in, the project root and whether stdout takes
// colour.
func (e *env) reader() guard.Reader { return guard.Reader{WD: e.wd, Root: e.root, Color: e.color()} }
