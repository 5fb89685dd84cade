package blocks

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// keyNames lists the names of a key table.
func keyNames[T any](specs []key[T]) []string {
	names := make([]string, len(specs))
	for i, sp := range specs {
		names[i] = sp.name
	}
	return names
}

// TestKeysDocumented: every key the loader accepts is documented in README.md or docs/, as `key`, in a TOML example
// (key = …) or as a table header ([key], [key.…], [[key]], [[parent.key]]).
func TestKeysDocumented(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs/*.md to read (%v): the keys are documented there", err)
	}
	var doc []byte
	for _, f := range append(files, filepath.Join("..", "README.md")) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc = append(doc, b...)
	}
	tables := map[string][]string{
		"promptc.toml":     keyNames(manifestKeys),
		"[runbook]/[turn]": keyNames(sectionKeys),
		"[vars.NAME]":      keyNames(varKeys),
		"records fields":   keyNames(fieldKeys),
		"[[target]]":       keyNames(targetKeys),
		"[lint]":           keyNames(lintKeys),
		"[[lint.allow]]":   keyNames(allowKeys),
		"[history]":        keyNames(historyKeys),
		"[[model]]":        keyNames(modelKeys),
		"blocks/ files":    keyNames(blockFileKeys),
		"[[block]]":        keyNames(blockKeys),
		"[[tool]]":         keyNames(toolKeys),
		"fixtures":         append(keyNames(fixtureKeys), ReplyKey, AfterKey),
	}
	for table, names := range tables {
		for _, name := range names {
			q := regexp.QuoteMeta(name)
			re := regexp.MustCompile("`" + q + "`|(?m)^\\s*" + q + "\\s*=|\\[\\[?([a-z_]+\\.)*" + q + "[.\\]]")
			if !re.Match(doc) {
				t.Errorf("key %q of %s is not documented in README.md or docs/", name, table)
			}
		}
	}
}
