package explain

import (
	"fmt"
	"strings"

	"github.com/promptc/promptc/assemble"
)

// BudgetNote is what the turn budget ([turn] max_tokens, docs/reference.md "Turn budget") did to one turn message:
// the artifact's path and the budget's report.
type BudgetNote struct {
	Artifact string
	Budget   *assemble.Budget
}

// budgetNotes lists the turn messages among arts that the budget cut (or found over it).
func budgetNotes(arts []*assemble.Artifact) []BudgetNote {
	var out []BudgetNote
	for _, a := range arts {
		if a.Budget.Over() {
			out = append(out, BudgetNote{Artifact: a.Path, Budget: a.Budget})
		}
	}
	return out
}

// budgetReason says what the budget did to block id in the notes, or "" when it did nothing to it.
func budgetReason(notes []BudgetNote, id string) string {
	var parts []string
	for _, n := range notes {
		for _, c := range n.Budget.Cuts {
			if c.Block != id {
				continue
			}
			if c.Var == "" {
				parts = append(parts, "omitted it from "+n.Artifact)
			} else {
				parts = append(parts, fmt.Sprintf("dropped %d of its %q items in %s", c.Items, c.Var, n.Artifact))
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "the turn budget " + strings.Join(parts, "; ")
}

func writeBudgetText(sb *strings.Builder, notes []BudgetNote) {
	if len(notes) == 0 {
		return
	}
	sb.WriteString("turn budget:\n")
	for _, n := range notes {
		fmt.Fprintf(sb, "  %s: %s\n", n.Artifact, strings.TrimPrefix(n.Budget.String(), "turn budget: "))
	}
}

// jsonBudget is a turn budget's report in JSON (docs/explain.md).
type jsonBudget struct {
	Artifact  string    `json:"artifact,omitempty"`
	MaxTokens int       `json:"max_tokens"`
	Before    int       `json:"before"`
	After     int       `json:"after"`
	Exceeded  bool      `json:"exceeded"`
	Cuts      []jsonCut `json:"cuts"`
}

type jsonCut struct {
	Block  string `json:"block"`
	Var    string `json:"var,omitempty"`
	Items  int    `json:"items,omitempty"`
	Tokens int    `json:"tokens"`
}

func budgetJSON(artifact string, b *assemble.Budget) *jsonBudget {
	if b == nil {
		return nil
	}
	cuts := make([]jsonCut, len(b.Cuts))
	for i, c := range b.Cuts {
		cuts[i] = jsonCut{c.Block, c.Var, c.Items, c.Tokens}
	}
	return &jsonBudget{artifact, b.MaxTokens, b.Before, b.After, b.Exceeded, cuts}
}

func budgetsJSON(notes []BudgetNote) []*jsonBudget {
	out := make([]*jsonBudget, len(notes))
	for i, n := range notes {
		out[i] = budgetJSON(n.Artifact, n.Budget)
	}
	return out
}

// budgetOmitted reports whether the budget omitted block id from a message, or shrank it to nothing.
func budgetOmitted(notes []BudgetNote, id string) bool {
	for _, n := range notes {
		for _, c := range n.Budget.Cuts {
			if c.Block == id {
				return true
			}
		}
	}
	return false
}
