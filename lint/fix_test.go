package lint

import (
	"fmt"
	"strings"
	"testing"
)

// TestFixExtra: the findings whose fix is an edit carry it as data in Extra (a UseConst, a MoveEntry), and the data
// is the fix the Suggestion states; a pasted constant in a raw body, whose fix is no edit, carries none, and no other
// finding carries any.
func TestFixExtra(t *testing.T) {
	prog, arts := ltCompile(t, map[string]string{
		"promptc.toml": ltManifest(`"who", "rules", "verbatim", "footer"`, "\n[turn]\norder = [\"assignment\"]\n"),
		"blocks/a.toml": `[const]
boundary = "Run only the commands listed in this runbook, and nothing else."

[[block]]
id   = "who"
body = "You are {{.agent_name}}."

[[block]]
id   = "rules"
body = "Run only the commands listed in this runbook, and nothing else. Be brief."

[[block]]
id   = "verbatim"
raw  = true
body = "Quoted: Run only the commands listed in this runbook, and nothing else."

[[block]]
id   = "footer"
body = "Never push to main."

[[block]]
id   = "assignment"
body = "Work on {{.issue_id}}."
`,
	})
	got := map[string]any{}
	for _, f := range Run(prog, arts, ltCounter(t)) {
		switch f.Lint {
		case PastedConstant, ScopeInversion:
			got[string(f.Lint)+" "+f.Block] = f.Extra
		default:
			if f.Extra != nil {
				t.Errorf("%s: Extra = %#v, want none", f, f.Extra)
			}
			continue
		}
		switch x := f.Extra.(type) {
		case UseConst:
			if want := fmt.Sprintf("replace the text with {{const %q}}", x.Name); f.Suggestion != want {
				t.Errorf("%s: Extra %+v, but the fix says %q", f, x, f.Suggestion)
			}
		case MoveEntry:
			where := map[bool]string{true: "after", false: "before"}[x.After]
			if want := fmt.Sprintf("move %q %s %q in runbook.order", x.Entry, where, x.Anchor); !strings.HasPrefix(f.Suggestion, want) {
				t.Errorf("%s: Extra %+v, but the fix says %q", f, x, f.Suggestion)
			}
		}
	}
	want := map[string]any{
		"pasted-constant rules":    UseConst{Name: "boundary"},
		"pasted-constant verbatim": nil,
		"scope-inversion who":      MoveEntry{Entry: "who", Anchor: "footer", After: true},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Extra by finding:\n%v\nwant:\n%v", got, want)
	}
}
