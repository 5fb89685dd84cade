package preview

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// project writes a small project into a temporary directory; its one constant and a session value hold markup.
func project(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"promptc.toml": `name  = "demo"
tasks = ["chat", "issue"]

[runbook]
order = ["rules", "who"]

[turn]
order = ["ask"]

[vars.agent]
scope = "session"
type  = "string"
trust = "trusted"

[vars.q]
scope = "turn"
type  = "string"
`,
		"blocks/main.toml": `[const]
rule = "Never run <script>alert(1)</script> anywhere."

[[block]]
id    = "rules"
title = "Rules"
body  = """{{const "rule"}}"""

[[block]]
id   = "who"
body = "You are {{.agent}}."

[[block]]
id   = "ask"
body = "Question: {{.q}}"
`,
		"fixtures/basic.toml": `[session]
agent = "<img src=x onerror=alert(2)>"
[[turn]]
q = "one"
[[turn]]
q = "two"
`,
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func get(t *testing.T, h http.Handler, method, target, host string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	req.Host = host
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestServer(t *testing.T) {
	root := project(t)
	srv, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, method, target, host string
		status                     int
		body                       string // a substring the body must hold
	}{
		{"the page", "GET", "/", "127.0.0.1:7420", 200, `<script src="/app.js" defer></script>`},
		{"the script", "GET", "/app.js", "localhost:7420", 200, "textContent"},
		{"the style", "GET", "/style.css", "[::1]:7420", 200, "--global"},
		{"head", "HEAD", "/", "127.0.0.1", 200, ""},
		{"the index", "GET", "/api/index", "127.0.0.1", 200, `"path":"chat/basic.runbook.md"`},
		{"an artifact", "GET", "/api/artifact?path=chat/basic.turn-2.md", "127.0.0.1", 200, `"text":"Question: two\n"`},
		{"stats", "GET", "/api/stats", "127.0.0.1", 200, `"shared_prefix"`},
		{"simulate", "GET", "/api/simulate?task=chat&provider=openai", "127.0.0.1", 200, `"layouts"`},
		{"explain", "GET", "/api/explain?path=chat/basic.runbook.md&line=3", "127.0.0.1", 200, `"block": "rules"`},
		{"post refused", "POST", "/api/index", "127.0.0.1", 405, "GET only"},
		{"put refused", "PUT", "/", "127.0.0.1", 405, "GET only"},
		{"another host refused (DNS rebinding)", "GET", "/api/index", "evil.example:7420", 403, "loopback"},
		{"a LAN host refused", "GET", "/", "192.168.1.10:7420", 403, "loopback"},
		{"a path outside the project", "GET", "/api/artifact?path=../../etc/passwd", "127.0.0.1", 404, "no such artifact"},
		{"a file of the project is not served", "GET", "/promptc.toml", "127.0.0.1", 404, ""},
		{"no directory listing", "GET", "/assets/", "127.0.0.1", 404, ""},
		{"an unknown view", "GET", "/api/nope", "127.0.0.1", 404, ""},
		{"a bad line", "GET", "/api/explain?path=chat/basic.runbook.md&line=x", "127.0.0.1", 400, "line must be a number"},
		{"an unknown task", "GET", "/api/simulate?task=caht&provider=openai", "127.0.0.1", 400, `did you mean \"chat\"`},
		{"an unknown provider", "GET", "/api/artifact?path=chat/basic.runbook.md&provider=nope", "127.0.0.1", 400, "unknown provider"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(t, srv, tt.method, tt.target, tt.host)
			if rec.Code != tt.status {
				t.Errorf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
			if !strings.Contains(rec.Body.String(), tt.body) {
				t.Errorf("body lacks %q:\n%s", tt.body, rec.Body)
			}
			if got := rec.Header().Get("Content-Security-Policy"); got != CSP {
				t.Errorf("Content-Security-Policy = %q, want %q", got, CSP)
			}
			if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options = %q", got)
			}
		})
	}
}

// TestArtifactView: the view's text is the artifact's bytes, its blocks tile it in order, and the segments and
// breakpoints lie inside it; markup in a constant and in a value is data, never part of the page.
func TestArtifactView(t *testing.T) {
	snap, err := Load(project(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := snap.Artifact("chat/basic.runbook.md", "anthropic")
	if err != nil {
		t.Fatal(err)
	}
	want := "## Rules\n\nNever run <script>alert(1)</script> anywhere.\n\nYou are <img src=x onerror=alert(2)>.\n"
	if v.Text != want {
		t.Errorf("text %q, want %q", v.Text, want)
	}
	end := 0
	for _, b := range v.Blocks {
		if b.Start != end || b.TextStart < b.Start || b.End < b.TextStart {
			t.Errorf("block %s spans %d-%d (text from %d), after %d", b.ID, b.Start, b.End, b.TextStart, end)
		}
		end = b.End
	}
	if end != len(want) {
		t.Errorf("blocks end at %d, want %d", end, len(want))
	}
	if len(v.Segments) != 2 || v.Segments[0].Scope != "global" || v.Segments[1].Scope != "session" || v.Segments[1].End != len(want) {
		t.Errorf("segments %+v", v.Segments)
	}
	for _, bp := range v.Breakpoints {
		if bp.Offset <= 0 || bp.Offset > len(want) {
			t.Errorf("breakpoint at %d outside the runbook", bp.Offset)
		}
	}
	if v.Provider != "anthropic" || v.Note == "" && len(v.Breakpoints) == 0 {
		t.Errorf("provider %q, %d breakpoints, note %q", v.Provider, len(v.Breakpoints), v.Note)
	}
	page, err := assets.ReadFile("assets/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), "alert(") {
		t.Error("the page holds prompt bytes")
	}
	// The script never hands data to the HTML parser.
	js, _ := assets.ReadFile("assets/app.js")
	for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"} {
		if strings.Contains(string(js), bad) {
			t.Errorf("app.js uses %s", bad)
		}
	}
	// Nothing is fetched from elsewhere: every URL in the assets is the server's own.
	for _, name := range []string{"index.html", "app.js", "style.css"} {
		b, _ := assets.ReadFile("assets/" + name)
		for _, ext := range []string{"http://", "https://", "//cdn", "@import", "url("} {
			if strings.Contains(string(b), ext) && !(name == "app.js" && ext == "http://" && strings.Contains(string(b), `"http://www.w3.org/2000/svg"`)) {
				t.Errorf("%s refers to %s", name, ext)
			}
		}
	}
}

// TestRefresh: an edit to a source makes a new page (and only an edit does); a project that stops compiling is
// a page of its diagnostics, with no artifacts; the event stream tells a page each new version.
func TestRefresh(t *testing.T) {
	root := project(t)
	srv, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if changed, err := srv.Refresh(); changed || err != nil {
		t.Fatalf("Refresh with nothing changed = %v, %v", changed, err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := bufio.NewScanner(resp.Body)
	next := func() string {
		for events.Scan() {
			if v, ok := strings.CutPrefix(events.Text(), "data: "); ok {
				return v
			}
		}
		t.Fatal("event stream ended")
		return ""
	}
	if v := next(); v != "1" {
		t.Fatalf("first event %q, want version 1", v)
	}

	main := filepath.Join(root, "blocks", "main.toml")
	src, _ := os.ReadFile(main)
	edited := strings.Replace(string(src), "Never run", "Do not run", 1)
	if err := os.WriteFile(main, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if changed, err := srv.Refresh(); !changed || err != nil {
		t.Fatalf("Refresh after an edit = %v, %v", changed, err)
	}
	if v := next(); v != "2" {
		t.Fatalf("event after the edit %q, want version 2", v)
	}
	v, err := srv.Page().Artifact("chat/basic.runbook.md", "")
	if err != nil || !strings.Contains(v.Text, "Do not run") {
		t.Fatalf("after the edit: %v, %q", err, v.Text)
	}

	if err := os.WriteFile(main, []byte(strings.Replace(edited, `const "rule"`, `const "rul"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if changed, _ := srv.Refresh(); !changed {
		t.Fatal("Refresh after breaking the project reported no change")
	}
	var ix Index
	if err := json.Unmarshal(get(t, srv, "GET", "/api/index", "127.0.0.1").Body.Bytes(), &ix); err != nil {
		t.Fatal(err)
	}
	if ix.OK || len(ix.Artifacts) != 0 || len(ix.Problems) == 0 || !strings.Contains(ix.Problems[0].Message, `unknown constant "rul"`) {
		t.Errorf("broken project index: ok %v, %d artifacts, problems %+v", ix.OK, len(ix.Artifacts), ix.Problems)
	}
	if rec := get(t, srv, "GET", "/api/artifact?path=chat/basic.runbook.md", "127.0.0.1"); rec.Code != 404 {
		t.Errorf("a stale artifact is served from a broken project: %d", rec.Code)
	}
}

func TestListen(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.168.1.10:0", "[::]:0", "example.com:80", "nonsense"} {
		if ln, err := Listen(addr); err == nil {
			ln.Close()
			t.Errorf("Listen(%q) succeeded, want it refused", addr)
		}
	}
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
}

func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1": true, "127.0.0.1:80": true, "127.1.2.3:9": true, "localhost": true, "LOCALHOST:1": true,
		"[::1]:7420": true, "::1": true, "": false, "0.0.0.0": false, "10.0.0.1:80": false, "localhost.evil.example": false,
		"evil.example": false, "[::]:1": false,
	} {
		if got := LoopbackHost(host); got != want {
			t.Errorf("LoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}
