package workspace

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/suggest"
)

// ErrNoTargets is SelectTargets' error for every target of a project that declares none.
var ErrNoTargets = errors.New("promptc.toml declares no [[target]]: add one (name, file, begin, end) for each context file")

// SelectTargets returns the targets of p that install and uninstall work on: every one with all, or else those
// named, in the order named and each once. A name p does not declare is an error that suggests the closest one and
// lists them all (install --target's message); with all, a project without targets is ErrNoTargets.
func SelectTargets(p *blocks.Project, names []string, all bool) ([]*blocks.Target, error) {
	if all {
		if len(p.Targets) == 0 {
			return nil, ErrNoTargets
		}
		return p.Targets, nil
	}
	var out []*blocks.Target
	for _, name := range names {
		t := p.Target(name)
		if t == nil {
			if len(p.Targets) == 0 {
				return nil, fmt.Errorf("no target %s: %w", strconv.Quote(name), ErrNoTargets)
			}
			known := p.TargetNames()
			return nil, fmt.Errorf("no target %s in promptc.toml%s; the targets are: %s", strconv.Quote(name), suggest.DidYouMean(name, known), strings.Join(known, ", "))
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, nil
}
