package projection

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
)

func TestToolsMode(t *testing.T) {
	for _, s := range []string{"text", "native"} {
		var m ToolsMode
		if err := m.Set(s); err != nil || m.String() != s {
			t.Errorf("Set(%q) = %v, %v; want the mode named %q", s, m, err, s)
		}
	}
	var m ToolsMode
	err := m.Set("natve")
	if err == nil || m != ToolsText {
		t.Fatalf("Set(natve) = %v, mode %v: want an error and the mode untouched", err, m)
	}
	if want := `unknown tools mode "natve" (did you mean "native"?): use text or native`; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if _, err := ParseToolsMode(""); err == nil {
		t.Error(`ParseToolsMode("") succeeded; the empty name is not a mode`)
	}
	if s := ToolsMode(7).String(); !strings.Contains(s, "7") {
		t.Errorf("String of an out-of-set mode = %q, want it to show the number", s)
	}
	p := &blocks.Project{}
	if got := ToolsText.Tools(p, "chat"); got != nil {
		t.Errorf("ToolsText.Tools = %v, want nil: text tools reach the model through the runbook only", got)
	}
}
