package guard

import (
	"sort"
	"strings"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/golden"
	"github.com/promptc/promptc/internal/prefix"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/tokens"
)

// Side is one version of a project's artifacts. Old sides read from golden/ carry bytes only; sides compiled from
// sources (the working tree, a git revision) carry source maps too.
type Side struct {
	// Label names the side in diffs: "golden", "HEAD", "working tree".
	Label string
	// Dir prefixes artifact paths in diff headers: "golden/", "build/".
	Dir  string
	Arts []*assemble.Artifact
}

// FromBytes makes artifacts without source maps from a path → bytes tree (golden/ as read from disk). A file whose
// path is not an artifact's keeps its path and bytes, with no task or kind.
func FromBytes(tree map[string][]byte) []*assemble.Artifact {
	return fromBytes(tree, func(b []byte) string { return string(b) })
}

// fromBytes is FromBytes with text making each artifact's text from its bytes. check reads golden/ itself and
// never touches the bytes again, so it lets the texts share them rather than copy megabytes into new memory.
func fromBytes(tree map[string][]byte, text func([]byte) string) []*assemble.Artifact {
	paths := make([]string, 0, len(tree))
	for p := range tree {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	arts := make([]*assemble.Artifact, 0, len(paths))
	for _, p := range paths {
		a, ok := assemble.ParsePath(p)
		if !ok {
			a = &assemble.Artifact{Path: p}
		}
		a.Text = text(tree[p])
		arts = append(arts, a)
	}
	return arts
}

// Change is one artifact that differs, with everything a reviewer needs to judge it.
type Change struct {
	Path    string
	Status  golden.Status
	Task    string
	Fixture string
	Kind    blocks.Kind
	// Offset is the first differing byte; Line and Col (1-based, col in runes) locate it in both sides.
	Offset int
	Line   int
	Col    int
	// Block owns the first differing byte: from the new side's source map, or from the old side's when bytes were
	// only removed. Empty when no source map covers it (bytes removed at the end, compared with golden/). Source is
	// where the block is defined, Scope its scope (meaningful only when Block or After is set).
	Block  string
	Source source.Range
	Scope  blocks.Scope
	Side   string // "new" or "old"
	// Origin is set when a source finer than the block wrote the first differing byte: a constant, a line of a
	// template file, or a variable's value (from the side's source map, traced through the block's body); its kind
	// is OriginConstant, OriginTemplate or OriginValue.
	Origin *assemble.Origin
	// After names the last block before the change when no block owns it.
	After string
	// InvalidatedBytes and InvalidatedTokens price the change: the cached prefix from Offset to the end of the
	// artifact's stable part (a runbook; a turn message has none).
	InvalidatedBytes  int
	InvalidatedTokens int
	OldBytes          int
	NewBytes          int
	// Note explains a change that is easy to misread, such as line endings that differ and nothing else.
	Note string
	// Diff is a unified line diff of the two sides (3 lines of context), control characters shown as \xNN.
	Diff string
}

// attributed reports whether a block's source map covers the change: Block or After is set, and so is Scope.
func (c *Change) attributed() bool { return c.Block != "" || c.After != "" }

// Report is the result of comparing two sides.
type Report struct {
	Old, New Side
	Encoding string
	Changes  []*Change
}

// Compare compares two sides artifact by artifact and attributes every difference. tok counts the invalidated tokens;
// it is only used when something differs, so a clean comparison never loads a vocabulary.
func Compare(old, new Side, tok *tokens.Counter) *Report {
	r := &Report{Old: old, New: new, Encoding: tok.Encoding().String()}
	olds := map[string]*assemble.Artifact{}
	for _, a := range old.Arts {
		olds[a.Path] = a
	}
	news := map[string]*assemble.Artifact{}
	for _, a := range new.Arts {
		news[a.Path] = a
	}
	paths := make([]string, 0, len(olds)+len(news))
	for p := range olds {
		paths = append(paths, p)
	}
	for p := range news {
		if _, ok := olds[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		o, n := olds[p], news[p]
		if o != nil && n != nil && o.Text == n.Text {
			continue
		}
		r.Changes = append(r.Changes, compareOne(p, o, n, old, new, tok))
	}
	return r
}

func compareOne(path string, o, n *assemble.Artifact, old, new Side, tok *tokens.Counter) *Change {
	c := &Change{Path: path, Status: golden.Changed}
	var oldText, newText string
	switch {
	case o == nil:
		c.Status = golden.Added
		newText = n.Text
	case n == nil:
		c.Status = golden.Removed
		oldText = o.Text
	default:
		oldText, newText = o.Text, n.Text
	}
	if a, ok := assemble.ParsePath(path); ok {
		c.Task, c.Fixture, c.Kind = a.Task, a.Fixture, a.Kind
	}
	c.OldBytes, c.NewBytes = len(oldText), len(newText)
	c.Offset = prefix.Common(oldText, newText)
	// Line and column name the character holding the first differing byte, which may be inside it.
	text := newText
	if c.Offset >= len(newText) {
		text = oldText
	}
	at := source.TextPos(text, c.Offset)
	c.Line, c.Col = at.Line, at.Column

	// Attribute the first differing byte: to the new side's block, or, when bytes were only removed, the old side's.
	// A new artifact has no first change to blame: nothing of it existed.
	switch {
	case c.Status == golden.Added:
	case n != nil && c.Offset < len(newText):
		c.attribute(n, "new")
	case o != nil && c.Offset < len(oldText) && len(o.Spans) > 0:
		c.attribute(o, "old")
	case n != nil && len(n.Spans) > 0:
		// Text was removed after the last block. Without the old side's source map the removed block is unknown;
		// name the last block kept, and its scope. The prefixes up to it are intact (see Summarize).
		c.After = n.Spans[len(n.Spans)-1].Block.ID
		c.Scope = n.Spans[len(n.Spans)-1].Scope
	}

	// The cache holds the old bytes: everything from the first difference to the end of the old runbook is lost.
	// A turn message is the volatile suffix: no cached prefix to lose. A new artifact had nothing cached.
	if c.Kind == blocks.Runbook && c.Status != golden.Added {
		lost := oldText[c.Offset:]
		c.InvalidatedBytes = len(lost)
		c.InvalidatedTokens = tok.Count(lost)
	}
	if c.Status == golden.Changed && strings.ReplaceAll(oldText, "\r\n", "\n") == strings.ReplaceAll(newText, "\r\n", "\n") {
		c.Note = "only line endings differ (CRLF vs LF): a checkout converted them; mark the files -text in .gitattributes"
	}
	c.Diff = UnifiedDiff(old.Dir+path, new.Dir+path, oldText, newText, o != nil, n != nil)
	return c
}

func (c *Change) attribute(a *assemble.Artifact, side string) {
	sp, ok := a.SpanAt(c.Offset)
	if !ok {
		return
	}
	c.Block, c.Source, c.Scope, c.Side = sp.Block.ID, sp.Block.Range, sp.Scope, side
	if o, ok := a.Origin(c.Offset); ok {
		c.Origin = newOrigin(o)
	}
}

// newOrigin keeps the origins a report names: a constant, a template file's line or a value (assemble.OriginKind
// spells them); the block's own inline text and heading are already named by the block's position, and an action
// or a separator by the block.
func newOrigin(o assemble.Origin) *assemble.Origin {
	switch o.Kind {
	case assemble.OriginConstant, assemble.OriginTemplate, assemble.OriginValue:
		return &o
	}
	return nil
}
