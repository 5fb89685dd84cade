package blocks_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/values"
)

// toolsProject is base with tools in two files, each way TOML can write parameters: subtables, an inline table, and
// no parameters at all.
const toolsProject = `
-- blocks/tools/b.toml --
[[tool]]
name        = "tracker_search"
description = "Search issues. Returns up to ` + "`limit`" + ` matches."
tasks       = ["issue"]
[tool.parameters]
type     = "object"
required = ["query"]
[tool.parameters.properties.query]
type        = "string"
description = "Words to find <in> titles & bodies"
[tool.parameters.properties.limit]
type    = "integer"
minimum = 1
maximum = 50
default = 10
[tool.parameters.properties.ratio]
type    = "number"
maximum = 0.5

[[tool]]
name        = "Zeta-2"
description = "Ungated, with no parameters."
-- blocks/tools/a.toml --
[[tool]]
name        = "comment"
description = """
Post a comment.
"""
except      = ["issue"]
parameters  = { type = "object", properties = { body = { type = "string", enum = ["a", "b"] } }, additionalProperties = false }
`

func TestLoadTools(t *testing.T) {
	p, diags := values.Load(with(base, toolsProject))
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	var names []string
	for _, tl := range p.Tools {
		names = append(names, tl.Name+"@"+tl.Range.String())
	}
	// Definition order: by file path, then position.
	if want := []string{"comment@blocks/tools/a.toml:1:1", "tracker_search@blocks/tools/b.toml:1:1", "Zeta-2@blocks/tools/b.toml:20:1"}; !reflect.DeepEqual(names, want) {
		t.Errorf("tools = %q, want %q", names, want)
	}
	byName := map[string]*blocks.Tool{}
	for _, tl := range p.Tools {
		byName[tl.Name] = tl
	}
	search, zeta, comment := byName["tracker_search"], byName["Zeta-2"], byName["comment"]
	if !reflect.DeepEqual(search.Tasks, []string{"issue"}) || !reflect.DeepEqual(zeta.Tasks, []string{"*"}) || !reflect.DeepEqual(comment.Except, []string{"issue"}) {
		t.Errorf("gates: search %q, zeta %q, comment except %q", search.Tasks, zeta.Tasks, comment.Except)
	}
	if comment.Description != "Post a comment.\n" {
		t.Errorf("comment description = %q", comment.Description)
	}
	if got := search.Table.Key("description").String(); got != "blocks/tools/b.toml:3:1" {
		t.Errorf("description of tracker_search at %s", got)
	}
	for _, tt := range []struct{ tool, want string }{
		{"tracker_search", `{"properties":{"limit":{"default":10,"maximum":50,"minimum":1,"type":"integer"},"query":{"description":"Words to find <in> titles & bodies","type":"string"},"ratio":{"maximum":0.5,"type":"number"}},"required":["query"],"type":"object"}`},
		{"Zeta-2", `{"properties":{},"type":"object"}`},
		{"comment", `{"additionalProperties":false,"properties":{"body":{"enum":["a","b"],"type":"string"}},"type":"object"}`},
	} {
		if got := string(byName[tt.tool].SchemaJSON()); got != tt.want {
			t.Errorf("%s: SchemaJSON = %s\nwant %s", tt.tool, got, tt.want)
		}
	}
	if limit := search.Parameters["properties"].(map[string]any)["limit"].(map[string]any); limit["maximum"] != int64(50) {
		t.Errorf("a TOML integer stays an int64: %#v", limit["maximum"])
	}
	if req := search.Parameters["required"]; !reflect.DeepEqual(req, []any{"query"}) {
		t.Errorf("a TOML array becomes []any: %#v", req)
	}

	// ToolsFor: gated, and sorted by name (byte order), whatever the files.
	for _, tt := range []struct {
		task string
		want []string
	}{
		{"issue", []string{"Zeta-2", "tracker_search"}},
		{"chat", []string{"Zeta-2", "comment"}},
		{"nope", []string{"Zeta-2", "comment"}},
	} {
		var got []string
		for _, tl := range p.ToolsFor(tt.task) {
			got = append(got, tl.Name)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ToolsFor(%q) = %q, want %q", tt.task, got, tt.want)
		}
	}
}

// TestLoadToolsLayout: where a tool is written does not change what is loaded, nor the order ToolsFor gives.
func TestLoadToolsLayout(t *testing.T) {
	one, diags := values.Load(with(base, toolsProject))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	moved := strings.Replace(strings.Replace(toolsProject, "-- blocks/tools/a.toml --", "-- blocks/z.toml --", 1), "-- blocks/tools/b.toml --", "-- blocks/0.toml --", 1)
	two, diags := values.Load(with(base, moved))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for _, task := range []string{"issue", "chat"} {
		a, b := one.ToolsFor(task), two.ToolsFor(task)
		if len(a) != len(b) {
			t.Fatalf("%s: %d tools, then %d", task, len(a), len(b))
		}
		for i := range a {
			if a[i].Name != b[i].Name || string(a[i].SchemaJSON()) != string(b[i].SchemaJSON()) {
				t.Errorf("%s: tool %d is %s, then %s", task, i, a[i].Name, b[i].Name)
			}
		}
	}
}

func TestLoadToolErrors(t *testing.T) {
	tool := func(body string) string { return "[[tool]]\nname = \"a\"\ndescription = \"x\"\n" + body }
	params := func(body string) string { return tool("[tool.parameters]\ntype = \"object\"\n" + body) }
	tests := []struct {
		name, file, want string
	}{
		{"no name", "[[tool]]\ndescription = \"x\"\n",
			"1:1: [[tool]] needs a name: add name = \"…\" (letters, digits, '_' and '-', at most 64)"},
		{"name with a space", "[[tool]]\nname = \"has space\"\ndescription = \"x\"\n",
			"2:8: tool name \"has space\" is not valid: tool names match ^[A-Za-z0-9_-]{1,64}$, which is what the providers' APIs accept"},
		{"name too long", "[[tool]]\nname = \"" + strings.Repeat("a", 65) + "\"\ndescription = \"x\"\n",
			"2:8: tool name \"" + strings.Repeat("a", 65) + "\" is not valid: tool names match ^[A-Za-z0-9_-]{1,64}$, which is what the providers' APIs accept"},
		{"name not a string", "[[tool]]\nname = 1\ndescription = \"x\"\n",
			"2:1: name must be a string, not an integer"},
		{"no description", "[[tool]]\nname = \"a\"\n",
			"1:1: tool \"a\" needs a description: add description = \"…\" saying what the tool does and when to call it"},
		{"blank description", "[[tool]]\nname = \"a\"\ndescription = \" \\n\"\n",
			"3:1: the description of tool \"a\" is empty: say what the tool does and when to call it"},
		{"unknown keys", tool("descriptoin = \"y\"\nfoo = 1\n"),
			"4:1: unknown key \"descriptoin\" in tool \"a\" (did you mean \"description\"?)\n" +
				"5:1: unknown key \"foo\" in tool \"a\" (known keys: name, description, parameters, tasks, except)"},
		{"empty tasks", tool("tasks = []\n"),
			"4:1: tasks is empty, so tool \"a\" would never be offered: list task kinds, or \"*\" for all"},
		{"undeclared tasks", tool("tasks = [\"issue\", \"chta\"]\nexcept = [\"nope\"]\n"),
			"4:19: tasks names undeclared task \"chta\" (did you mean \"chat\"?)\n5:11: except names undeclared task \"nope\""},
		{"parameters not a table", tool("parameters = \"object\"\n"),
			"4:1: parameters must be a table, not a string"},
		{"not an object schema", tool("parameters = { properties = {} }\n"),
			"4:1: the parameters schema of tool \"a\" must describe an object: set type = \"object\" at its top level (a tool's arguments are a JSON object)"},
		{"an array schema", tool("[tool.parameters]\ntype = \"array\"\n"),
			"4:1: the parameters schema of tool \"a\" must describe an object: set type = \"object\" at its top level (a tool's arguments are a JSON object)"},
		{"another draft", params("\"$schema\" = \"http://json-schema.org/draft-07/schema#\"\n"),
			"4:1: the parameters schema of tool \"a\" names $schema \"http://json-schema.org/draft-07/schema#\", but promptc checks tool schemas as JSON Schema draft 2020-12: remove $schema, or set it to \"https://json-schema.org/draft/2020-12/schema\""},
		{"remote $ref", params("[tool.parameters.properties.q]\n\"$ref\" = \"https://example.com/q.json\"\n"),
			"4:1: the parameters schema of tool \"a\" is not valid JSON Schema (draft 2020-12): it refers to \"https://example.com/q.json\", outside itself, and promptc never fetches schemas: define the subschema under $defs and refer to it as \"#/$defs/NAME\""},
		{"file $ref", params("[tool.parameters.properties.q]\n\"$ref\" = \"file:///etc/passwd\"\n"),
			"4:1: the parameters schema of tool \"a\" is not valid JSON Schema (draft 2020-12): it refers to \"file:///etc/passwd\", outside itself, and promptc never fetches schemas: define the subschema under $defs and refer to it as \"#/$defs/NAME\""},
		{"relative $ref", params("[tool.parameters.properties.q]\n\"$ref\" = \"q.json\"\n"),
			"4:1: the parameters schema of tool \"a\" is not valid JSON Schema (draft 2020-12): it refers to \"q.json\", outside itself, and promptc never fetches schemas: define the subschema under $defs and refer to it as \"#/$defs/NAME\""},
		{"dangling local $ref", params("[tool.parameters.properties.q]\n\"$ref\" = \"#/$defs/q\"\n"),
			"4:1: the parameters schema of tool \"a\" is not valid JSON Schema (draft 2020-12): $ref \"#/$defs/q\" points at nothing in the schema: define what it names (under $defs), or correct the reference"},
		{"meta-schema violation", params("[tool.parameters.properties.q]\ntype = \"string\"\nminLength = -1\n"),
			"4:1: the parameters schema of tool \"a\" is not valid JSON Schema (draft 2020-12): at /properties/q/minLength: minimum: got -1, want 0; fix it so the schema validates against the draft 2020-12 meta-schema"},
		{"unknown type", params("[tool.parameters.properties.q]\ntype = \"strng\"\n"),
			"4:1: the parameters schema of tool \"a\" is not valid JSON Schema (draft 2020-12): at /properties/q/type: value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'; fix it so the schema validates against the draft 2020-12 meta-schema"},
		{"pattern that is not RE2", params("[tool.parameters.properties.q]\ntype = \"string\"\npattern = \"(?<=x)\"\n"),
			"4:1: the parameters schema of tool \"a\" is not valid JSON Schema (draft 2020-12): at /properties/q/pattern: '(?<=x)' is not valid regex: error parsing regexp: invalid named capture: `(?<=x)`; fix it so the schema validates against the draft 2020-12 meta-schema"},
		{"a datetime", params("[tool.parameters.properties.since]\ntype = \"string\"\ndefault = 2024-01-01\n"),
			"8:1: parameters.properties.since.default of tool \"a\" is a TOML date or time, which JSON has no type for: write it as a string (\"2025-01-31\")"},
		{"a datetime in an array", params("[tool.parameters.properties.q]\nexamples = [\"a\", 1979-05-27T07:32:00Z]\n"),
			"7:1: parameters.properties.q.examples[1] of tool \"a\" is a TOML date or time, which JSON has no type for: write it as a string (\"2025-01-31\")"},
		{"a datetime inline", tool("parameters = { type = \"object\", default = { at = 07:32:00 } }\n"),
			"4:1: parameters.default.at of tool \"a\" is a TOML date or time, which JSON has no type for: write it as a string (\"2025-01-31\")"},
		{"infinity", params("[tool.parameters.properties.q]\ntype = \"number\"\nmaximum = inf\n"),
			"8:1: parameters.properties.q.maximum of tool \"a\" is +Inf, which is not a JSON number: write a finite number"},
		{"second tool's subtable", tool("\n[[tool]]\nname = \"b\"\ndescription = \"y\"\n[tool.parameters]\ntype = \"object\"\n[tool.parameters.properties.q]\n\"quoted key\" = 07:32:00\n"),
			"11:1: parameters.properties.q.\"quoted key\" of tool \"b\" is a TOML date or time, which JSON has no type for: write it as a string (\"2025-01-31\")"},
		{"second tool's schema", tool("\n[[tool]]\nname = \"b\"\ndescription = \"y\"\n[tool.parameters]\ntype = \"objekt\"\n"),
			"8:1: the parameters schema of tool \"b\" must describe an object: set type = \"object\" at its top level (a tool's arguments are a JSON object)"},
		{"tool is a table", "[tool]\nname = \"a\"\n",
			"1:1: tool must be an array of tables ([[tool]]), not a table"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, diags := values.Load(with(base, "-- blocks/tools.toml --\n"+tt.file))
			var want strings.Builder
			for _, line := range strings.Split(tt.want, "\n") {
				want.WriteString("blocks/tools.toml:" + line + "\n")
			}
			if got := diags.String(); got != want.String() {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want.String())
			}
			for _, tl := range p.Tools {
				if tl.Name == "a" && len(diags) > 0 && tt.name != "second tool's subtable" && tt.name != "second tool's schema" {
					t.Errorf("tool %q has a problem, yet it is in Tools", tl.Name)
				}
			}
		})
	}
}

// TestLoadToolDuplicate: a tool name is unique across the project; the second definition is reported at its name,
// pointing at the first.
func TestLoadToolDuplicate(t *testing.T) {
	p, diags := values.Load(with(base, "-- blocks/a.toml --\n[[tool]]\nname = \"t\"\ndescription = \"x\"\n-- blocks/b.toml --\n\n[[tool]]\nname = \"t\"\ndescription = \"y\"\n"))
	if want := "blocks/b.toml:3:1: tool \"t\" is defined twice: here and at blocks/a.toml:2:1; tool names are unique across the project\n"; diags.String() != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", diags, want)
	}
	if len(p.Tools) != 1 || p.Tools[0].Description != "x" {
		t.Errorf("tools = %v", p.Tools)
	}
}

func TestLoadModels(t *testing.T) {
	p, diags := values.Load(with(base, manifestWith(`
[history]
volatile = ["timestamp", "request_id"]

[[model]]
provider         = "anthropic"
name             = "claude-sonnet-4-5"
min_cache_tokens = 2048
source           = "measured"
checked          = "2026-12-02"

[[model]]
provider        = "dashscope"
name            = "qwen-local"
max_breakpoints = 0
lookback        = 20
cache_write     = 1
cache_read      = 0.1
safety          = 1.1
step            = 64
max_cache_tokens = 0
tool_markers    = false
`)))
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	if !reflect.DeepEqual(p.Volatile, []string{"timestamp", "request_id"}) {
		t.Errorf("volatile = %q", p.Volatile)
	}
	if len(p.Models) != 2 {
		t.Fatalf("models = %v", p.Models)
	}
	a, d := p.Models[0], p.Models[1]
	if a.Provider != "anthropic" || a.Name != "claude-sonnet-4-5" || a.MinCacheTokens == nil || *a.MinCacheTokens != 2048 ||
		a.MaxBreakpoints != nil || a.Lookback != nil || a.Step != nil || a.CacheWrite != nil || a.CacheRead != nil || a.Safety != nil ||
		a.MaxCacheTokens != nil || a.ToolMarkers != nil ||
		a.Source != "measured" || a.Checked != "2026-12-02" || a.Range.String() != "promptc.toml:13:1" {
		t.Errorf("anthropic row = %+v", a)
	}
	if d.MinCacheTokens != nil || *d.MaxBreakpoints != 0 || *d.Lookback != 20 || *d.CacheWrite != 1 || *d.CacheRead != 0.1 || *d.Safety != 1.1 || *d.Step != 64 ||
		d.MaxCacheTokens == nil || *d.MaxCacheTokens != 0 || d.ToolMarkers == nil || *d.ToolMarkers {
		t.Errorf("dashscope row = %+v", d)
	}

	p, diags = values.Load(archive(base))
	if len(diags) > 0 || p.Volatile != nil || p.Models != nil {
		t.Errorf("defaults: volatile %q, models %v, %s", p.Volatile, p.Models, diags)
	}
}

func TestLoadModelErrors(t *testing.T) {
	tests := []struct{ name, manifest, want string }{
		{
			name:     "missing and unknown provider, missing and empty name",
			manifest: "[[model]]\nname = \"x\"\n\n[[model]]\nprovider = \"antropic\"\n\n[[model]]\nprovider = \"openai\"\nname = \"\"\n",
			want: "promptc.toml:9:1: [[model]] needs a provider: add provider = \"anthropic\" (or another of docs/providers.md)\n" +
				"promptc.toml:12:1: [[model]] needs the model's name: add name = \"…\" (the model id as the provider's API takes it)\n" +
				"promptc.toml:13:12: provider must be \"anthropic\", \"openai\", \"dashscope\", \"bedrock\", \"gemini\" or \"deepseek\", not \"antropic\" (did you mean \"anthropic\"?)\n" +
				"promptc.toml:17:1: name must not be empty\n",
		},
		{
			name: "values out of range or of the wrong kind",
			manifest: "[[model]]\nprovider = \"openai\"\nname = \"gpt\"\nmin_cache_tokens = 0\nmax_breakpoints = -1\nlookback = -2\ncache_write = -0.5\n" +
				"cache_read = \"x\"\nsafety = 0.9\nstep = 0\nsorce = \"x\"\nchecked = 3\nmax_cache_tokens = -1\ntool_markers = \"no\"\n",
			want: "promptc.toml:12:1: min_cache_tokens must be at least 1, not 0\n" +
				"promptc.toml:13:1: max_breakpoints must be at least 0, not -1\n" +
				"promptc.toml:14:1: lookback must be at least 0, not -2\n" +
				"promptc.toml:15:1: cache_write must be at least 0, not -0.5\n" +
				"promptc.toml:16:1: cache_read must be a number, not a string\n" +
				"promptc.toml:17:1: safety must be at least 1, not 0.9\n" +
				"promptc.toml:18:1: step must be at least 1, not 0\n" +
				"promptc.toml:19:1: unknown key \"sorce\" in [[model]] (did you mean \"source\"?)\n" +
				"promptc.toml:20:1: checked must be a string, not an integer\n" +
				"promptc.toml:21:1: max_cache_tokens must be at least 0, not -1\n" +
				"promptc.toml:22:1: tool_markers must be true or false, not a string\n",
		},
		{
			name:     "not finite, a float for an int",
			manifest: "[[model]]\nprovider = \"openai\"\nname = \"gpt\"\ncache_write = nan\ncache_read = inf\nsafety = 1\nmin_cache_tokens = 1.5\n",
			want: "promptc.toml:12:1: cache_write must be a finite number, not NaN\n" +
				"promptc.toml:13:1: cache_read must be a finite number, not +Inf\n" +
				"promptc.toml:15:1: min_cache_tokens must be an integer, not a float\n",
		},
		{
			name:     "two rows for one model",
			manifest: "[[model]]\nprovider = \"openai\"\nname = \"gpt\"\n\n[[model]]\nprovider = \"anthropic\"\nname = \"gpt\"\n\n[[model]]\nprovider = \"openai\"\nname = \"gpt\"\n",
			want:     "promptc.toml:19:8: model \"gpt\" of provider \"openai\" has two [[model]] rows: here and at promptc.toml:11:8; merge them into one\n",
		},
		{
			name:     "model is a table",
			manifest: "[model]\nprovider = \"openai\"\n",
			want:     "promptc.toml:9:1: model must be an array of tables ([[model]]), not a table\n",
		},
		{
			name:     "history: empty and repeated names, unknown key",
			manifest: "[history]\nvolatile = [\"timestamp\", \"\", \"timestamp\"]\nvolatil = 1\n",
			want: "promptc.toml:10:26: volatile[1] is empty: list the names of the tool result fields to leave out\n" +
				"promptc.toml:10:30: volatile lists \"timestamp\" twice\n" +
				"promptc.toml:11:1: unknown key \"volatil\" in [history] (did you mean \"volatile\"?)\n",
		},
		{
			name:     "history: not a list",
			manifest: "[history]\nvolatile = \"timestamp\"\n",
			want:     "promptc.toml:10:1: volatile must be a list of strings, not a string\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := values.Load(with(base, manifestWith(tt.manifest)))
			if got := diags.String(); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestLoadReplies: assistant in a [[turn]] is the assistant's reply to that turn, not a variable; replies go with
// the turns they come from through extends.
func TestLoadReplies(t *testing.T) {
	p, diags := values.Load(with(base, `
-- fixtures/basic.toml --
tasks = ["*"]
[[turn]]
issue_id  = "ISS-1"
assistant = "Looking at it."
[[turn]]
issue_id = "ISS-1"
[[turn]]
assistant = """
Done: see the PR.
"""
-- fixtures/child.toml --
extends = "basic"
-- fixtures/own.toml --
extends = "basic"
[[turn]]
issue_id = "ISS-2"
`))
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	want := []string{"Looking at it.", "", "Done: see the PR.\n"}
	for _, name := range []string{"basic", "child"} {
		f := p.Fixture(name)
		if !reflect.DeepEqual(f.Replies, want) || len(f.Turns) != 3 {
			t.Errorf("%s: replies %q, %d turns", name, f.Replies, len(f.Turns))
		}
		if _, ok := f.Turns[0]["assistant"]; ok {
			t.Errorf("%s: assistant is among the turn's values", name)
		}
	}
	if own := p.Fixture("own"); !reflect.DeepEqual(own.Replies, []string{""}) {
		t.Errorf("own: replies %q", own.Replies)
	}

	for _, tt := range []struct{ name, manifest, fixture, want string }{
		{
			name:    "assistant of the wrong type; misspelled; in [session]",
			fixture: "[session]\nassistant = \"x\"\n[[turn]]\nassistant = 3\n[[turn]]\nassistan = \"y\"\n",
			want: "fixtures/basic.toml:2:1: unknown variable \"assistant\" in [session]\n" +
				"fixtures/basic.toml:4:1: assistant in [[turn]] is the assistant's reply to the turn, so it must be a string, not an integer\n" +
				"fixtures/basic.toml:6:1: unknown variable \"assistan\" in [[turn]] (did you mean \"assistant\"?)\n",
		},
		{
			name:    "after: a positive duration, or it is refused",
			fixture: "[[turn]]\nafter = \"4m30s\"\n[[turn]]\nafter = \"soon\"\n[[turn]]\nafter = 30\n[[turn]]\nafter = \"-1s\"\n",
			want: "fixtures/basic.toml:4:1: after in [[turn]] is the time since the previous turn, a positive duration such as \"30s\" or \"4m30s\", not \"soon\"\n" +
				"fixtures/basic.toml:6:1: after in [[turn]] is the time since the previous turn, a positive duration such as \"30s\" or \"4m30s\", not an integer\n" +
				"fixtures/basic.toml:8:1: after in [[turn]] is the time since the previous turn, a positive duration such as \"30s\" or \"4m30s\", not \"-1s\"\n",
		},
		{
			name:     "a variable named after",
			manifest: "\n[vars.after]\nscope = \"turn\"\ntype = \"text\"\n",
			want:     "promptc.toml:22:1: after is reserved in [[turn]]: a fixture's turn gives the time since the previous turn under this key, so no variable can take it; choose another name\n",
		},
		{
			name:     "a variable named assistant",
			manifest: "\n[vars.assistant]\nscope = \"session\"\ntype = \"text\"\n",
			want:     "promptc.toml:22:1: assistant is reserved in [[turn]]: a fixture's turn gives the assistant's reply to that turn under this key, so no variable can take it; choose another name\n",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			files := []string{}
			if tt.manifest != "" {
				files = append(files, strings.Replace(base, "-- blocks/base.toml --", tt.manifest+"-- blocks/base.toml --", 1))
			}
			if tt.fixture != "" {
				files = append(files, "-- fixtures/basic.toml --\n"+tt.fixture)
			}
			_, diags := values.Load(with(base, files...))
			if got := diags.String(); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}
