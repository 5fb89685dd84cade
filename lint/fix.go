package lint

// The fixes below are the Extra of the findings whose fix is a mechanical edit (source.Diagnostic.Extra): what an
// editor's code action needs, as data, so that it never reads the Suggestion's English back. A finding whose fix is
// not an edit (a raw body cannot call const) has no Extra.

// UseConst is the Extra of a pasted-constant finding whose fix is an edit: the text at the finding's Subject is the
// constant's text, pasted, and is replaced by the call {{const Name}}.
type UseConst struct {
	Name string // the constant
}

// MoveEntry is the Extra of a scope-inversion finding: runbook.order's entry Entry (a slot: the id of the block it
// names) moves to just after Anchor when After is set, else to just before it. Both are entries of runbook.order.
type MoveEntry struct {
	Entry, Anchor string
	After         bool
}
