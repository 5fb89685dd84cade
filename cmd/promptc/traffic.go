package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/source"
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
	var diags source.Diagnostics
	for _, name := range files {
		ds, err := tally.ReadFile(name, e.path(name), os.Stdin)
		if err != nil {
			return nil, cmdErr(e, cmd, "--traffic %s: %v", source.QuoteName(name), e.pathError(name, err))
		}
		diags = append(diags, ds...)
	}
	if len(diags) > 0 {
		_, _ = e.stderr.Write([]byte(diags.String()))
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
