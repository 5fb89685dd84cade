package miss

import (
	"fmt"
	"strings"

	"github.com/promptc/promptc/internal/suggest"
	"github.com/promptc/promptc/provider"
)

// CheckProvider returns nil when name is "" (the provider told from each body) or one of provider.Names(), and otherwise
// an error naming the closest provider and listing them all, as promptc miss --provider words it.
func CheckProvider(name string) error {
	if name == "" || provider.Known(name) {
		return nil
	}
	names := provider.Names()
	return fmt.Errorf("unknown provider %q%s: use %s", name, suggest.DidYouMean(name, names), strings.Join(names, ", "))
}
