package guard_test

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/guard"
)

// TestUpdateRefusal: check --update is refused where CI says continuous integration, and only there.
func TestUpdateRefusal(t *testing.T) {
	for v, refused := range map[string]bool{"": false, "0": false, "FALSE": false, "true": true, "1": true} {
		t.Setenv("CI", v)
		err := guard.UpdateRefusal()
		if (err != nil) != refused {
			t.Errorf("CI=%q: %v, want refused %v", v, err, refused)
		}
		if err != nil && !strings.Contains(err.Error(), "add --force") {
			t.Errorf("CI=%q: %v does not say how to override", v, err)
		}
	}
}
