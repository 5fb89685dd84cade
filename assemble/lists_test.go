package assemble_test

import (
	"strings"
	"testing"

	"github.com/promptc/promptc/assemble"
)

const listsProject = `
-- promptc.toml --
name = "p"
tasks = ["t"]

[runbook]
order = ["rb"]
-- blocks/c.toml --
[const]
category_order = ["todo", "doing", "done"]
greeting = "Hi"

[const.labels]
todo = "To do"
done = "Done"
doing = "In progress"
`

func listsCase(body string) string {
	return listsProject + "-- blocks/x.toml --\n[[block]]\nid = \"rb\"\nbody = '" + body + "'\n"
}

func TestListConstants(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"range over a list constant, in order", `{{range const "category_order"}}[{{.}}]{{end}}`, "[todo][doing][done]\n"},
		{"index and item", `{{range $i, $c := const "category_order"}}{{$i}}={{lookup "labels" $c}} {{end}}`, "0=To do 1=In progress 2=Done\n"},
		{"join", `{{join (const "category_order") ", "}}`, "todo, doing, done\n"},
		{"lookup table in key order", `{{range $k, $v := lookup_table "labels"}}{{$k}}:{{$v}};{{end}}`, "doing:In progress;done:Done;todo:To do;\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arts := mustBuild(t, archive(listsCase(tt.body)))
			if got := arts[0].Text; got != tt.want {
				t.Errorf("runbook = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestListConstantErrors(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"printed", `x {{const "category_order"}}`,
			`blocks/x.toml:3:19: block "rb" prints list constant "category_order", which has items, not a text: walk it with {{range const "category_order"}}…{{end}}, or join it with {{join (const "category_order") ", "}}`},
		{"text constant ranged over", `{{range const "greeting"}}{{.}}{{end}}`,
			`blocks/x.toml:3:23: block "rb" ranges over text constant "greeting", which has no items: print it with {{const "greeting"}}, or make it a list constant (greeting = ["…", "…"])`},
		{"lookup on a list", `{{lookup "category_order" "x"}}`,
			`blocks/x.toml:3:18: block "rb" calls lookup on "category_order", a list constant, not a lookup table: walk it with {{range const "category_order"}}`},
		{"lookup_table of a text constant", `{{range lookup_table "greeting"}}{{end}}`,
			`blocks/x.toml:3:30: block "rb" calls lookup on "greeting", a text constant, not a lookup table: use {{const "greeting"}}`},
		{"unknown table", `{{range lookup_table "lables"}}{{end}}`,
			`blocks/x.toml:3:30: block "rb" looks up unknown table "lables" (did you mean "labels"?): define it as [const.lables] with name = "text" entries in a blocks/ file`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := assemble.Load(archive(listsCase(tt.body)))
			if got := strings.TrimSpace(diags.String()); got != tt.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestListConstantItemsMustBeStrings(t *testing.T) {
	src := strings.Replace(listsCase(`{{range const "category_order"}}{{.}}{{end}}`), `category_order = ["todo", "doing", "done"]`, `category_order = ["todo", 2]`, 1)
	_, diags := assemble.Load(archive(src))
	want := `blocks/c.toml:2:27: item 2 of list constant "category_order" must be a string, not an integer`
	if got := strings.TrimSpace(diags.String()); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
}
