package guard

import (
	"github.com/promptc/promptc"
	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/gitfs"
	"github.com/promptc/promptc/projection"
)

// priceChange prices the report's change from before to new at opts.Traffic, else at new's
// [traffic]: per task, the most tokens any of its runbooks' changes invalidates is the prefix re-written once. The
// prices come from new's model catalog, the pipeline's (its [[model]] rows over the built-in ones).
func priceChange(before *assemble.Program, new *promptc.Pipeline, rep *Report, opts Options) ([]projection.ChangePrice, error) {
	traffic := opts.Traffic
	if traffic == nil {
		traffic = projection.ManifestTraffic(new.Project())
	}
	if len(traffic) == 0 {
		return nil, nil
	}
	invalidated := map[string]int{}
	for _, c := range rep.Changes {
		if c.Kind == blocks.Runbook && c.InvalidatedTokens > invalidated[c.Task] {
			invalidated[c.Task] = c.InvalidatedTokens
		}
	}
	cat, err := new.Catalog()
	if err != nil {
		return nil, err
	}
	return projection.PriceChange(before, new.Program(), invalidated, traffic, cat, opts.counter())
}

// committedGolden is the project at root as committed at HEAD when it builds exactly the artifacts gold holds
// (golden/ accepted and committed, as the pre-commit hook keeps it): the before side a check can replay. nil
// otherwise: outside git, with no project at HEAD, or with golden/ out of step with it.
func committedGolden(root string, gold []*assemble.Artifact, opts Options) *assemble.Program {
	fsys, err := gitfs.Open(root, "HEAD")
	if err != nil {
		return nil
	}
	pl, diags := open(fsys, opts)
	if len(diags) > 0 {
		return nil
	}
	arts, err := pl.Artifacts()
	if err != nil || len(arts) != len(gold) {
		return nil
	}
	text := make(map[string]string, len(gold))
	for _, a := range gold {
		text[a.Path] = a.Text
	}
	for _, a := range arts {
		if t, ok := text[a.Path]; !ok || t != a.Text {
			return nil
		}
	}
	return pl.Program()
}
