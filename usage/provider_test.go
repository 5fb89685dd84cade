package usage_test

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/usage"
)

// A wrapper's provider must be one of the model table's (provider.Names()): each is taken, another is refused by name.
func TestWrapperProvider(t *testing.T) {
	const body = `"response":{"usage":{"prompt_tokens":10,"completion_tokens":2}}`
	for _, p := range provider.Names() {
		r, err := usage.ParseLine([]byte(`{"provider":"` + p + `",` + body + `}`))
		if err != nil || r.Provider != p {
			t.Errorf("provider %q: %+v, %v", p, r, err)
		}
	}
	_, err := usage.ParseLine([]byte(`{"provider":"vertex",` + body + `}`))
	if err == nil || !strings.Contains(err.Error(), `unknown provider "vertex"`) {
		t.Errorf("provider \"vertex\": %v; want it refused by name", err)
	}
}
