package preview

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/promptc/promptc/internal/atomicfile"
	"github.com/promptc/promptc/provider"
	"github.com/promptc/promptc/usage"
)

// ExportFile is the page Export writes in its directory.
const ExportFile = "index.html"

// Export is promptc serve --export DIR: it writes the preview of the project at root as one self-contained page,
// dir/index.html (dir is created when missing), that any browser opens from disk with no server and no network: the
// page's style and script are inline, and so is the data of every view the live page asks the server for (every
// artifact for every provider, every line's explanation, the stats, every task's simulation for every provider, and
// with opts.Base the comparison). The page is written atomically (a reader sees the old page or the new one) and
// depends on the project alone: the same sources give the same bytes.
//
// A project that does not compile is an error (its source.Diagnostics), and nothing is written: a page that only
// lists diagnostics is no page to publish. Load's errors are Export's.
func Export(root, dir string, opts Options) error {
	snap, err := Load(root, opts)
	if err != nil {
		return err
	}
	if len(snap.Problems) > 0 {
		return snap.Problems
	}
	var page bytes.Buffer
	if err := snap.WritePage(&page); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, ExportFile), page.Bytes(), 0o644)
}

// exportCSP is the Content-Security-Policy of an exported page, in a meta element: CSP's discipline with inline
// code, which only the page's own script and style (named by their SHA-256) may be. No fetch, no image, no frame,
// no form: the data is in the page. (frame-ancestors has no effect in a meta element, so it is not given.)
func exportCSP(script, style string) string {
	hash := func(s string) string {
		h := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
	}
	return "default-src 'none'; script-src " + hash(script) + "; style-src " + hash(style) +
		"; img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'"
}

// pageData is the data of every view, as the page reads it from the element #promptc-data of an exported page: each
// view under the parameters the live page would ask the server for.
type pageData struct {
	Index Index           `json:"index"`
	Stats json.RawMessage `json:"stats"`
	// Timeline is the series of Options.Timeline, left out without one.
	Timeline *usage.Series `json:"timeline,omitempty"`
	Base     *Base         `json:"base"`
	// Artifacts holds each artifact's view by path, without breakpoints; Breakpoints holds, by path, then by
	// provider, the fields of the view that depend on the provider (its provider, model, breakpoints and note, and
	// the same of base.old), which the page lays over it. The text is in the page once, not once per provider.
	Artifacts   map[string]json.RawMessage            `json:"artifacts"`
	Breakpoints map[string]map[string]json.RawMessage `json:"breakpoints"`
	// Explain holds each artifact's lines' explanations by path, line 1 first.
	Explain map[string][]json.RawMessage `json:"explain"`
	// Simulate holds each task's simulation by task, then by provider.
	Simulate map[string]map[string]json.RawMessage `json:"simulate"`
}

// WritePage writes the self-contained page Export writes. The page must hold a project that
// compiles.
func (s *Page) WritePage(w io.Writer) error {
	if s.Prog == nil {
		return errors.New("the project does not compile: there is nothing to export")
	}
	d, err := s.pageData()
	if err != nil {
		return err
	}
	// json.Marshal writes <, > and & as \u escapes: no prompt byte can close the data's script element or open
	// markup; the page parses it with JSON.parse and writes it to text nodes.
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	html, err := assets.ReadFile("assets/index.html")
	if err != nil {
		return err
	}
	js, err := assets.ReadFile("assets/app.js")
	if err != nil {
		return err
	}
	css, err := assets.ReadFile("assets/style.css")
	if err != nil {
		return err
	}
	script, style := "\n"+string(js), "\n"+string(css)
	if strings.Contains(strings.ToLower(script), "</script") || strings.Contains(strings.ToLower(style), "</style") {
		return errors.New("preview: the page's script or style would end its element early")
	}
	page := string(html)
	for _, r := range []struct{ old, new string }{
		{`<link rel="stylesheet" href="/style.css">`,
			`<meta http-equiv="Content-Security-Policy" content="` + exportCSP(script, style) + `">` + "\n<style>" + style + "</style>"},
		{`<script src="/app.js" defer></script>` + "\n", ""},
		{"</body>", `<script type="application/json" id="promptc-data">` + string(data) + "</script>\n<script>" + script + "</script>\n</body>"},
	} {
		if strings.Count(page, r.old) != 1 {
			return fmt.Errorf("preview: the page template lacks %q", r.old)
		}
		page = strings.Replace(page, r.old, r.new, 1)
	}
	_, err = io.WriteString(w, page)
	return err
}

// pageData computes every view of the page.
func (s *Page) pageData() (*pageData, error) {
	d := &pageData{Index: s.Index(), Base: s.Base(), Timeline: s.Timeline(), Artifacts: map[string]json.RawMessage{},
		Breakpoints: map[string]map[string]json.RawMessage{}, Explain: map[string][]json.RawMessage{},
		Simulate: map[string]map[string]json.RawMessage{}}
	var err error
	if d.Stats, err = marshal(s.Stats()); err != nil {
		return nil, err
	}
	for _, e := range d.Index.Artifacts {
		v, err := s.Artifact(e.Path, "")
		if d.Artifacts[e.Path], err = marshalOr(v, err); err != nil {
			return nil, err
		}
		bps := map[string]json.RawMessage{}
		for _, p := range provider.Names() {
			v, err := s.Artifact(e.Path, p)
			if bps[p], err = marshalOr(providerPart(v), err); err != nil {
				return nil, err
			}
		}
		d.Breakpoints[e.Path] = bps
		a := s.byPath[e.Path]
		if a == nil {
			continue // removed since the base revision: no line of the working tree to explain
		}
		lines := strings.Count(a.Text, "\n")
		if a.Text != "" && !strings.HasSuffix(a.Text, "\n") {
			lines++
		}
		ex := make([]json.RawMessage, lines)
		for n := 1; n <= lines; n++ {
			r, err := s.Explain(e.Path, n)
			if ex[n-1], err = marshalOr(r, err); err != nil {
				return nil, err
			}
		}
		d.Explain[e.Path] = ex
	}
	for _, task := range s.Prog.Project.Tasks {
		sims := map[string]json.RawMessage{}
		for _, p := range provider.Names() {
			sim, err := s.Simulate(task, p)
			if sims[p], err = marshalOr(sim, err); err != nil {
				return nil, err
			}
		}
		d.Simulate[task] = sims
	}
	return d, nil
}

// providerView is the part of a view that depends on the provider (pageData.Breakpoints).
type providerView struct {
	Provider    string        `json:"provider,omitempty"`
	Model       string        `json:"model,omitempty"`
	Breakpoints []Breakpoint  `json:"breakpoints"`
	Note        string        `json:"note,omitempty"`
	Old         *providerView `json:"old,omitempty"`
}

func providerPart(v *View) *providerView {
	if v == nil {
		return nil
	}
	p := &providerView{Provider: v.Provider, Model: v.Model, Breakpoints: v.Breakpoints, Note: v.Note}
	if v.Base != nil && v.Base.Old != nil {
		p.Old = providerPart(v.Base.Old)
	}
	return p
}

// marshal is v's JSON, compact, in its documented form when it has one (WriteJSON), as the server answers it.
func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	if jw, ok := v.(interface{ WriteJSON(io.Writer) error }); ok {
		if err := jw.WriteJSON(&b); err != nil {
			return nil, err
		}
	} else if err := json.NewEncoder(&b).Encode(v); err != nil {
		return nil, err
	}
	var c bytes.Buffer
	if err := json.Compact(&c, b.Bytes()); err != nil {
		return nil, err
	}
	return c.Bytes(), nil
}

// marshalOr is v's JSON, or, when the view failed (a line no block wrote, a simulation a provider cannot run), the
// error as the server answers it: {"error": …}.
func marshalOr(v any, err error) (json.RawMessage, error) {
	if err != nil {
		return marshal(map[string]string{"error": err.Error()})
	}
	return marshal(v)
}
