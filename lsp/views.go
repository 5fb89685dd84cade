package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/promptc/promptc/analysis"
	"github.com/promptc/promptc/projection"
)

// What the editor shows of the cache (docs/editors.md#what-the-editor-shows-of-the-cache): inlay hints in
// promptc.toml, a code lens on each task, semantic tokens for template actions, and the command that opens the
// preview.

// settings are the initializationOptions the server reads; every one has a default.
type settings struct {
	// Provider is the provider whose default model the code lenses measure against ("anthropic").
	Provider string `json:"provider"`
	// PreviewURL is the address of promptc serve, which promptc.openPreview opens ("http://127.0.0.1:7420").
	PreviewURL string `json:"previewURL"`
	// Task is the task in view until the editor opens a golden artifact or a fixture ("": the manifest's first).
	Task string `json:"task"`
}

const (
	defaultProvider   = "anthropic"
	defaultPreviewURL = "http://127.0.0.1:7420"
	openPreview       = "promptc.openPreview"
)

// readSettings reads initializationOptions, keeping the default of every setting missing or malformed.
func readSettings(raw json.RawMessage) settings {
	st := settings{Provider: defaultProvider, PreviewURL: defaultPreviewURL}
	var in settings
	if len(raw) > 0 && json.Unmarshal(raw, &in) == nil {
		if _, err := projection.ParseProvider(in.Provider); err == nil {
			st.Provider = in.Provider
		}
		if strings.HasPrefix(in.PreviewURL, "http://") || strings.HasPrefix(in.PreviewURL, "https://") {
			st.PreviewURL = strings.TrimRight(in.PreviewURL, "/")
		}
		st.Task = in.Task
	}
	return st
}

// noteView records the task in view of path's project when path is a golden artifact or a fixture.
func (s *server) noteView(path string) {
	p := s.projectOf(path)
	if p == nil {
		return
	}
	name := p.rel(path)
	if !strings.HasPrefix(name, "golden/") && !strings.HasPrefix(name, "fixtures/") {
		return
	}
	s.mu.Lock()
	s.viewed[p.root] = name
	s.mu.Unlock()
}

// taskInView is the task the inlay hints of p measure: that of the golden artifact or fixture opened last, else
// the task of the initializationOptions, else the manifest's first.
func (s *server) taskInView(p *project, snap *analysis.Snapshot) string {
	s.mu.Lock()
	name, want := s.viewed[p.root], s.settings.Task
	s.mu.Unlock()
	if name != "" {
		if t, ok := snap.TaskInView(name); ok {
			return t
		}
	}
	for _, t := range snap.Project.Tasks {
		if t == want {
			return t
		}
	}
	t, _ := snap.TaskInView("")
	return t
}

type inlayHintParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
}

type inlayHint struct {
	Position     Position `json:"position"`
	Label        string   `json:"label"`
	Tooltip      string   `json:"tooltip,omitempty"`
	PaddingLeft  bool     `json:"paddingLeft,omitempty"`
	PaddingRight bool     `json:"paddingRight,omitempty"`
}

func inlayHints(s *server, ctx context.Context, params json.RawMessage) (any, *rpcError) {
	var q inlayHintParams
	if err := decode(params, &q); err != nil {
		return nil, err
	}
	snap, p, name, _, err := s.at(ctx, q.TextDocument.URI, nil)
	if err != nil || snap == nil {
		return nil, err
	}
	f := snap.File(name)
	out := []inlayHint{}
	for _, h := range snap.InlayHints(name, s.taskInView(p, snap)) {
		pos := toPosition(f.Text, h.Pos.Byte)
		if before(pos, q.Range.Start) || before(q.Range.End, pos) {
			continue
		}
		out = append(out, inlayHint{Position: pos, Label: h.Label, Tooltip: h.Tooltip, PaddingLeft: h.PadLeft, PaddingRight: h.PadRight})
	}
	return out, nil
}

// before reports whether a comes before b.
func before(a, b Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

type command struct {
	Title     string `json:"title"`
	Command   string `json:"command"`
	Arguments []any  `json:"arguments,omitempty"`
}

type codeLens struct {
	Range   Range    `json:"range"`
	Command *command `json:"command,omitempty"`
}

func codeLenses(s *server, ctx context.Context, params json.RawMessage) (any, *rpcError) {
	var q documentParams
	if err := decode(params, &q); err != nil {
		return nil, err
	}
	snap, _, name, _, err := s.at(ctx, q.TextDocument.URI, nil)
	if err != nil || snap == nil {
		return nil, err
	}
	out := []codeLens{}
	if name != "promptc.toml" {
		return out, nil
	}
	s.mu.Lock()
	st := s.settings
	s.mu.Unlock()
	provider, perr := projection.ParseProvider(st.Provider)
	if perr != nil {
		return nil, errorf(codeInternalError, "%v", perr)
	}
	f := snap.File(name)
	for _, l := range snap.TaskLenses(provider) {
		out = append(out, codeLens{Range: toRange(f, l.Range), Command: &command{Title: l.Title, Command: openPreview,
			Arguments: []any{st.PreviewURL + l.Preview, l.Task}}})
	}
	return out, nil
}

type executeCommandParams struct {
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments"`
}

// executeCommand runs promptc.openPreview: it asks the client to open its first argument, the preview's URL, in
// the browser (window/showDocument, external). The preview must be running (promptc serve).
func executeCommand(s *server, ctx context.Context, params json.RawMessage) (any, *rpcError) {
	var q executeCommandParams
	if err := decode(params, &q); err != nil {
		return nil, err
	}
	if q.Command != openPreview {
		return nil, errorf(codeInvalidParams, "unknown command %q: the server runs only %s", q.Command, openPreview)
	}
	var u string
	if len(q.Arguments) == 0 || json.Unmarshal(q.Arguments[0], &u) != nil ||
		!strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return nil, errorf(codeInvalidParams, "%s takes the preview's URL, an http: address, as its first argument", openPreview)
	}
	s.mu.Lock()
	s.shown++
	id := fmt.Sprintf(`"promptc-show-%d"`, s.shown)
	s.mu.Unlock()
	data, _ := json.Marshal(map[string]any{"uri": u, "external": true})
	if err := s.out.write(&message{ID: json.RawMessage(id), Method: "window/showDocument", Params: data}); err != nil {
		s.logf("write: %v", err)
	}
	return nil, nil
}

type semanticTokens struct {
	Data []int `json:"data"`
}

// semanticTokensFull encodes the tokens of a document as LSP's relative quintuples: line delta, start delta (UTF-16
// units, from the previous token's start on the same line), length, type, modifiers.
func semanticTokensFull(s *server, ctx context.Context, params json.RawMessage) (any, *rpcError) {
	var q documentParams
	if err := decode(params, &q); err != nil {
		return nil, err
	}
	snap, _, name, _, err := s.at(ctx, q.TextDocument.URI, nil)
	if err != nil || snap == nil {
		return nil, err
	}
	f := snap.File(name)
	out := semanticTokens{Data: []int{}}
	line, char := 0, 0
	for _, t := range snap.SemanticTokens(name) {
		r := toRange(f, t.Range)
		n := r.End.Character - r.Start.Character
		if n <= 0 || r.End.Line != r.Start.Line {
			continue
		}
		if r.Start.Line != line {
			char = 0
		}
		out.Data = append(out.Data, r.Start.Line-line, r.Start.Character-char, n, int(t.Type), int(t.Modifiers))
		line, char = r.Start.Line, r.Start.Character
	}
	return out, nil
}

type symbolInformation struct {
	Name          string   `json:"name"`
	Kind          int      `json:"kind"`
	Location      Location `json:"location"`
	ContainerName string   `json:"containerName,omitempty"`
}

type workspaceSymbolParams struct {
	Query string `json:"query"`
}

// maxWorkspaceSymbols bounds a workspace/symbol answer: an editor asks again as the query is typed.
const maxWorkspaceSymbols = 500

func workspaceSymbols(s *server, ctx context.Context, params json.RawMessage) (any, *rpcError) {
	var q workspaceSymbolParams
	if err := decode(params, &q); err != nil {
		return nil, err
	}
	out := []symbolInformation{}
	s.mu.Lock()
	projects := make([]*project, 0, len(s.projects))
	for _, root := range sortedRoots(s.projects) {
		projects = append(projects, s.projects[root])
	}
	s.mu.Unlock()
	for _, p := range projects {
		snap, err := p.current(ctx)
		if err != nil {
			return nil, errorf(codeRequestCancelled, "%v", err)
		}
		if snap == nil {
			continue
		}
		for _, d := range snap.WorkspaceSymbols(q.Query, maxWorkspaceSymbols-len(out)) {
			out = append(out, symbolInformation{Name: d.Name, Kind: symbolKinds[d.Kind], Location: p.location(snap, d.Selection), ContainerName: d.Detail})
		}
		if len(out) >= maxWorkspaceSymbols {
			break
		}
	}
	return out, nil
}

func sortedRoots(m map[string]*project) []string {
	roots := make([]string, 0, len(m))
	for r := range m {
		roots = append(roots, r)
	}
	slices.Sort(roots)
	return roots
}
