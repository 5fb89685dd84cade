package miss

import (
	"fmt"
	"slices"
	"strings"

	"github.com/promptc/promptc/internal/suggest"
)

// CheckProvider returns nil when name is "" (the provider told from each body) or one of Providers, and otherwise
// an error naming the closest provider and listing them all, as promptc miss --provider words it.
func CheckProvider(name string) error {
	if name == "" || slices.Contains(Providers, name) {
		return nil
	}
	return fmt.Errorf("unknown provider %q%s: use %s", name, suggest.DidYouMean(name, Providers), strings.Join(Providers, ", "))
}
