package preview

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
)

// hostile is markup a constant may hold: the exported page must show it as text, and no part of it may end the
// page's data element or start one.
const hostile = `</script><script>window.__pwned=1</script><!-- <img src=x onerror=alert(3)> & </style>`

// exported writes the export of the project at dir and returns the page.
func exported(t *testing.T, dir string, opts Options) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "site")
	if err := Export(dir, out, opts); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, ExportFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(page)
}

// pageParts splits an exported page into its CSP, its data, its script and its style, failing the test when the
// page does not have exactly one of each.
func pageParts(t *testing.T, page string) (csp string, data pageData, script, style string) {
	t.Helper()
	one := func(re string) string {
		ms := regexp.MustCompile(re).FindAllStringSubmatch(page, -1)
		if len(ms) != 1 {
			t.Fatalf("the page has %d matches of %s", len(ms), re)
		}
		return ms[0][1]
	}
	csp = one(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`)
	raw := one(`(?s)<script type="application/json" id="promptc-data">(.*?)</script>`)
	script = one(`(?s)<script>(.*?)</script>`)
	style = one(`(?s)<style>(.*?)</style>`)
	if err := json.Unmarshal([]byte(raw), &data); err != nil {
		t.Fatalf("the page's data: %v", err)
	}
	if strings.ContainsAny(raw, "<>") {
		t.Error("the page's data holds < or >: a prompt byte could be read as markup")
	}
	return csp, data, script, style
}

func TestExport(t *testing.T) {
	dir := project(t)
	edit(t, dir, "blocks/main.toml", "Never run", hostile+" Never run")
	page := exported(t, dir, Options{})

	// The same sources, the same bytes.
	if again := exported(t, dir, Options{}); again != page {
		t.Error("two exports of the same project differ")
	}
	csp, data, script, style := pageParts(t, page)
	hash := func(s string) string {
		h := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
	}
	want := "default-src 'none'; script-src " + hash(script) + "; style-src " + hash(style) +
		"; img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'"
	if csp != want {
		t.Errorf("CSP %q,\nwant %q", csp, want)
	}
	js, _ := assets.ReadFile("assets/app.js")
	css, _ := assets.ReadFile("assets/style.css")
	if strings.TrimSpace(script) != strings.TrimSpace(string(js)) || strings.TrimSpace(style) != strings.TrimSpace(string(css)) {
		t.Error("the page's script or style is not the live page's")
	}
	// Nothing is loaded from anywhere: outside the data (which is text, and holds the hostile constant), no src,
	// no href, no address.
	markup := regexp.MustCompile(`(?s)(<script type="application/json" id="promptc-data">).*?(</script>)`).ReplaceAllString(page, "$1$2")
	for _, bad := range []string{` src=`, ` href=`, "http://", "https://", "@import", "url("} {
		if n := strings.Count(markup, bad); n > 0 && !(bad == "http://" && n == strings.Count(markup, `"http://www.w3.org/2000/svg"`)) {
			t.Errorf("the page holds %s %d times", bad, n)
		}
	}

	snap, err := Load(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(data.Index.Artifacts) != len(snap.Arts) || data.Base != nil {
		t.Fatalf("the data indexes %d artifacts (base %v), want %d", len(data.Index.Artifacts), data.Base, len(snap.Arts))
	}
	for _, a := range snap.Arts {
		var v View
		if err := json.Unmarshal(data.Artifacts[a.Path], &v); err != nil {
			t.Fatal(err)
		}
		if v.Text != a.Text {
			t.Errorf("%s: the page's text %q, want %q", a.Path, v.Text, a.Text)
		}
		if len(data.Breakpoints[a.Path]) != len(blocks.Providers) {
			t.Errorf("%s: breakpoints for %d providers", a.Path, len(data.Breakpoints[a.Path]))
		}
		lines := strings.Count(a.Text, "\n")
		if len(data.Explain[a.Path]) != lines {
			t.Errorf("%s: %d lines explained, want %d", a.Path, len(data.Explain[a.Path]), lines)
		}
	}
	var pv providerView
	if err := json.Unmarshal(data.Breakpoints["chat/basic.runbook.md"]["anthropic"], &pv); err != nil || pv.Model == "" {
		t.Errorf("anthropic's part of the runbook: %+v, %v", pv, err)
	}
	var ex struct{ Block string }
	if err := json.Unmarshal(data.Explain["chat/basic.runbook.md"][2], &ex); err != nil || ex.Block != "rules" {
		t.Errorf("line 3 explained: %+v, %v", ex, err)
	}
	for _, task := range []string{"chat", "issue"} {
		if len(data.Simulate[task]) != len(blocks.Providers) {
			t.Errorf("%s: simulations for %d providers", task, len(data.Simulate[task]))
		}
	}
}

// TestExportBase: with a base revision the page holds the comparison too, and it is the server's.
func TestExportBase(t *testing.T) {
	dir := committed(t)
	edit(t, dir, "blocks/main.toml", "Never run", "Do not ever run")
	_, data, _, _ := pageParts(t, exported(t, dir, Options{Base: "HEAD"}))
	snap, err := Load(dir, Options{Base: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	if data.Base == nil || data.Base.Title != snap.Base().Title || data.Index.Base != "HEAD" {
		t.Fatalf("the page's comparison: %+v", data.Base)
	}
	v, err := snap.Artifact("chat/basic.runbook.md", "")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(v)
	var got, wantV any
	_ = json.Unmarshal(data.Artifacts["chat/basic.runbook.md"], &got)
	_ = json.Unmarshal(want, &wantV)
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(wantV)
	if !bytes.Equal(g, w) {
		t.Errorf("the page's view differs from the server's:\n%s\n%s", g, w)
	}
}

// TestExportAtomic: an export replaces the page whole and leaves no temporary file; a project that does not compile
// is an error and leaves the last page alone.
func TestExportAtomic(t *testing.T) {
	dir := project(t)
	out := filepath.Join(t.TempDir(), "site")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(out, ExportFile)
	if err := os.WriteFile(page, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Export(dir, out, Options{}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 1 || entries[0].Name() != ExportFile {
		t.Errorf("the directory holds %v, want only %s", entries, ExportFile)
	}
	good, _ := os.ReadFile(page)
	if !bytes.HasPrefix(good, []byte("<!doctype html>")) {
		t.Fatalf("the page starts %.40q", good)
	}
	edit(t, dir, "blocks/main.toml", `const "rule"`, `const "rul"`)
	err := Export(dir, out, Options{})
	var diags source.Diagnostics
	if !errors.As(err, &diags) || !strings.Contains(err.Error(), `unknown constant "rul"`) {
		t.Errorf("a broken project: %v, want its diagnostics", err)
	}
	if now, _ := os.ReadFile(page); !bytes.Equal(now, good) {
		t.Error("a failed export touched the page")
	}
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// FuzzWritePage: whatever a constant holds, the page has one data element, which parses back to the artifact's
// bytes, and no < or > in it.
func FuzzWritePage(f *testing.F) {
	f.Add(hostile)
	f.Add("</SCRIPT >\u2028\u2029<!--")
	f.Add("plain text & more")
	dir := project(f)
	main := filepath.Join(dir, "blocks", "main.toml")
	src, err := os.ReadFile(main)
	if err != nil {
		f.Fatal(err)
	}
	const was = `"Never run <script>alert(1)</script> anywhere."`
	if !strings.Contains(string(src), was) {
		f.Fatal("the project's constant moved")
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			t.Skip("TOML is UTF-8")
		}
		if err := os.WriteFile(main, []byte(strings.Replace(string(src), was, tomlString(text), 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		snap, err := Load(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if snap.Prog == nil {
			t.Skip("the constant does not compile:", snap.Problems)
		}
		var page bytes.Buffer
		if err := snap.WritePage(&page); err != nil {
			t.Fatal(err)
		}
		_, data, _, _ := pageParts(t, page.String())
		var v View
		if err := json.Unmarshal(data.Artifacts["chat/basic.runbook.md"], &v); err != nil {
			t.Fatal(err)
		}
		if want := snap.byPath["chat/basic.runbook.md"].Text; v.Text != want {
			t.Fatalf("the page's text %q, want %q", v.Text, want)
		}
	})
}
