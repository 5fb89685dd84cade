package assemble

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestArtifactOrigin traces bytes of a runbook back to the literal text, constant, template line or value that wrote
// them.
func TestArtifactOrigin(t *testing.T) {
	fsys := fstest.MapFS{
		"promptc.toml": {Data: []byte(`name  = "x"
tasks = ["a"]

[runbook]
order = ["s", "w", "who", "list", "see"]

[vars.agent_name]
scope = "session"
type  = "string"

[vars.labels]
scope = "session"
type  = "list"
`)},
		"blocks/00-constants.toml": {Data: []byte("[const]\n\nno_secrets = \"Never print secrets.\"\nsep = \" | \"\n")},
		"blocks/main.toml": {Data: []byte(`[[block]]
id    = "s"
title = "Safety"
body  = """
Rule one.
{{const "no_secrets"}} And more."""

[[block]]
id       = "w"
template = "w.md"

[[block]]
id   = "who"
body = "You are {{.agent_name}}."

[[block]]
id   = "list"
body = "Labels: {{join .labels (const \"sep\")}}."

[[block]]
id   = "see"
body = "See {{ref \"s\"}}; {{title \"s\"}} first."
`)},
		"templates/w.md":  {Data: []byte("Line one.\n{{if true}}\nLine two here.\n{{end}}\n")},
		"fixtures/f.toml": {Data: []byte("[session]\nagent_name = \"Ada\"\nlabels = [\"bug\", \"ui\"]\n")},
	}
	prog, diags := Load(fsys)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	arts, diags := prog.Build()
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	a := arts[0]
	tests := []struct {
		text string // the first occurrence of text in the runbook is traced
		kind OriginKind
		name string
		at   string
	}{
		{"Safety", OriginHeading, "", "blocks/main.toml:3:9"},
		{"Rule", OriginText, "", "blocks/main.toml:5:1"},
		{"print secrets", OriginConstant, "no_secrets", "blocks/00-constants.toml:3:1"},
		{"And more", OriginText, "", "blocks/main.toml:6:24"},
		{"Line one", OriginTemplate, "w.md", "templates/w.md:1:1"},
		{"two here", OriginTemplate, "w.md", "templates/w.md:3:6"},
		{"Ada", OriginValue, "agent_name", "fixtures/f.toml:2:1"},
		{"bug", OriginValue, "labels", "fixtures/f.toml:3:1"},
		{" | ", OriginConstant, "sep", "blocks/00-constants.toml:4:1"},
		{"See", OriginText, "", "blocks/main.toml:22:9"},
		{"Safety; ", OriginReference, "s", "blocks/main.toml:22:13"},
		{"Safety first", OriginAction, "", "blocks/main.toml:22:28"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			i := strings.Index(a.Text, tt.text)
			if i < 0 {
				t.Fatalf("%q not in the runbook:\n%s", tt.text, a.Text)
			}
			o, ok := a.Origin(i)
			if !ok {
				t.Fatalf("no origin for byte %d", i)
			}
			if o.Kind != tt.kind || o.Name != tt.name || o.At.String() != tt.at {
				t.Errorf("origin = %s %q at %s; want %s %q at %s", o.Kind, o.Name, o.At, tt.kind, tt.name, tt.at)
			}
		})
	}
	if _, ok := a.Origin(len(a.Text)); ok {
		t.Errorf("a byte past the end has an origin")
	}
	// The final newline belongs to the last block, and to nothing finer.
	if o, _ := a.Origin(len(a.Text) - 1); o.Kind != OriginBlock || o.Block.ID != "see" {
		t.Errorf("final newline: kind %s, block %s; want block, see", o.Kind, o.Block.ID)
	}
}

// TestOriginKindText checks that every kind has one spelling that reads back as itself, and that a word outside the
// set is refused with the kinds listed.
func TestOriginKindText(t *testing.T) {
	want := []string{"block", "heading", "text", "template", "constant", "value", "reference", "action"}
	for i, w := range want {
		k := OriginKind(i)
		b, err := k.MarshalText()
		if err != nil || string(b) != w || k.String() != w {
			t.Errorf("kind %d: MarshalText %q, %v; String %q; want %q", i, b, err, k.String(), w)
		}
		var back OriginKind
		if err := back.UnmarshalText([]byte(w)); err != nil || back != k {
			t.Errorf("UnmarshalText(%q) = %d, %v; want %d", w, back, err, k)
		}
	}
	if _, err := OriginKind(len(want)).MarshalText(); err == nil {
		t.Errorf("MarshalText of a kind outside the set: no error")
	}
	var k OriginKind
	err := k.UnmarshalText([]byte("const"))
	const msg = `unknown origin kind "const"; the kinds are: block, heading, text, template, constant, value, reference, action`
	if err == nil || err.Error() != msg {
		t.Errorf("UnmarshalText(\"const\") = %v; want %s", err, msg)
	}
}
