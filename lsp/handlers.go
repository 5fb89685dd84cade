package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"github.com/promptc/promptc/analysis"
	"github.com/promptc/promptc/source"
)

// handler answers one request; a nil result is JSON null.
type handler func(s *server, ctx context.Context, params json.RawMessage) (any, *rpcError)

var requests = map[string]handler{
	"textDocument/definition":          definition,
	"textDocument/references":          references,
	"textDocument/hover":               hoverRequest,
	"textDocument/completion":          completion,
	"textDocument/rename":              rename,
	"textDocument/prepareRename":       prepareRename,
	"textDocument/documentSymbol":      symbols,
	"textDocument/codeAction":          codeActions,
	"textDocument/inlayHint":           inlayHints,
	"textDocument/codeLens":            codeLenses,
	"textDocument/semanticTokens/full": semanticTokensFull,
	"workspace/symbol":                 workspaceSymbols,
	"workspace/executeCommand":         executeCommand,
}

func decode(params json.RawMessage, v any) *rpcError {
	if len(params) == 0 {
		return errorf(codeInvalidParams, "missing params")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return errorf(codeInvalidParams, "invalid params: %v", err)
	}
	return nil
}

// location converts a loader range of snap to an LSP location.
func (p *project) location(snap *analysis.Snapshot, r source.Range) Location {
	return Location{URI: pathURI(filepath.Join(p.root, filepath.FromSlash(r.Filename))), Range: toRange(snap.File(r.Filename), r)}
}

func definition(s *server, ctx context.Context, params json.RawMessage) (any, *rpcError) {
	var q positionParams
	snap, p, name, off, err := s.atRequest(ctx, params, &q)
	if err != nil || snap == nil {
		return nil, err
	}
	out := []Location{}
	for _, r := range snap.Definition(name, off) {
		out = append(out, p.location(snap, r))
	}
	return out, nil
}

func references(s *server, ctx context.Context, params json.RawMessage) (any, *rpcError) {
	var q referenceParams
	snap, p, name, off, err := s.atRequest(ctx, params, &q)
	if err != nil || snap == nil {
		return nil, err
	}
	out := []Location{}
	for _, r := range snap.References(name, off, q.Context.IncludeDeclaration) {
		out = append(out, p.location(snap, r))
	}
	return out, nil
}

func hoverRequest(s *server, ctx context.Context, params json.RawMessage) (any, *rpcError) {
	var q positionParams
	snap, _, name, off, err := s.atRequest(ctx, params, &q)
	if err != nil || snap == nil {
		return nil, err
	}
	h, ok := snap.Hover(name, off)
	if !ok {
		return nil, nil
	}
	r := toRange(snap.File(h.Range.Filename), h.Range)
	return hover{Contents: markupContent{Kind: "markdown", Value: h.Text}, Range: &r}, nil
}

// completionKinds maps analysis kinds to LSP CompletionItemKind.
var completionKinds = map[analysis.CompletionKind]int{
	analysis.CompleteKey:      10, // Property
	analysis.CompleteBlock:    18, // Reference
	analysis.CompleteConst:    21, // Constant
	analysis.CompleteLookup:   22, // Struct
	analysis.CompleteVar:      6,  // Variable
	analysis.CompleteField:    5,  // Field
	analysis.CompleteFunction: 3,  // Function
	analysis.CompleteTask:     20, // EnumMember
	analysis.CompleteTemplate: 17, // File
	analysis.CompleteFixture:  17, // File
}

func completion(s *server, ctx context.Context, params json.RawMessage) (any, *rpcError) {
	var q positionParams
	snap, _, name, off, err := s.atRequest(ctx, params, &q)
	if err != nil || snap == nil {
		return nil, err
	}
	out := completionList{Items: []completionItem{}}
	for _, c := range snap.Complete(name, off) {
		item := completionItem{Label: c.Label, Kind: completionKinds[c.Kind], Detail: c.Detail,
			TextEdit: &TextEdit{Range: toRange(snap.File(c.Range.Filename), c.Range), NewText: c.Label}}
		if c.Doc != "" {
			item.Documentation = &markupContent{Kind: "markdown", Value: c.Doc}
		}
		out.Items = append(out.Items, item)
	}
	return out, nil
}

func workspaceEdit(p *project, snap *analysis.Snapshot, edits map[string][]analysis.Edit) *WorkspaceEdit {
	we := &WorkspaceEdit{Changes: map[string][]TextEdit{}}
	for name, es := range edits {
		uri := pathURI(filepath.Join(p.root, filepath.FromSlash(name)))
		for _, e := range es {
			we.Changes[uri] = append(we.Changes[uri], TextEdit{Range: toRange(snap.File(name), e.Range), NewText: e.NewText})
		}
	}
	return we
}

func rename(s *server, ctx context.Context, params json.RawMessage) (any, *rpcError) {
	var q renameParams
	snap, p, name, off, err := s.atRequest(ctx, params, &q)
	if err != nil {
		return nil, err
	}
	if snap == nil {
		return nil, errorf(codeRequestFailed, "the file is not part of a promptc project")
	}
	edits, rerr := snap.Rename(name, off, q.NewName)
	if rerr != nil {
		var re *analysis.RenameError
		if errors.As(rerr, &re) {
			return nil, errorf(codeRequestFailed, "%s", re.Msg)
		}
		return nil, errorf(codeInternalError, "%v", rerr)
	}
	return workspaceEdit(p, snap, edits), nil
}

func prepareRename(s *server, ctx context.Context, params json.RawMessage) (any, *rpcError) {
	var q positionParams
	snap, _, name, off, err := s.atRequest(ctx, params, &q)
	if err != nil || snap == nil {
		return nil, err
	}
	o, rerr := snap.PrepareRename(name, off)
	if rerr != nil {
		return nil, errorf(codeRequestFailed, "%v", rerr)
	}
	placeholder := o.Symbol.Name
	if o.Symbol.Kind == analysis.KindField {
		// A field is named by its path ("resources.ref.url"); its own name is the last part. (The range may hold
		// more: a fixture's quoted key written with escapes.)
		placeholder = placeholder[strings.LastIndexByte(placeholder, '.')+1:]
	}
	return prepareRenameResult{Range: toRange(snap.File(o.Range.Filename), o.Range), Placeholder: placeholder}, nil
}

// symbolKinds maps analysis kinds to LSP SymbolKind.
var symbolKinds = map[analysis.SymbolKind]int{
	analysis.KindBlock: 2,  // Module
	analysis.KindConst: 14, // Constant
	analysis.KindVar:   13, // Variable
	analysis.KindField: 8,  // Field
	analysis.KindTask:  22, // EnumMember
}

func symbols(s *server, ctx context.Context, params json.RawMessage) (any, *rpcError) {
	var q documentParams
	if err := decode(params, &q); err != nil {
		return nil, err
	}
	snap, _, name, _, err := s.at(ctx, q.TextDocument.URI, nil)
	if err != nil || snap == nil {
		return nil, err
	}
	var conv func([]analysis.DocSymbol) []documentSymbol
	conv = func(in []analysis.DocSymbol) []documentSymbol {
		out := []documentSymbol{}
		for _, d := range in {
			f := snap.File(d.Range.Filename)
			out = append(out, documentSymbol{Name: d.Name, Detail: d.Detail, Kind: symbolKinds[d.Kind],
				Range: toRange(f, d.Range), SelectionRange: toRange(f, d.Selection), Children: conv(d.Children)})
		}
		return out
	}
	return conv(snap.Symbols(name)), nil
}

func codeActions(s *server, ctx context.Context, params json.RawMessage) (any, *rpcError) {
	var q codeActionParams
	if err := decode(params, &q); err != nil {
		return nil, err
	}
	snap, p, name, _, err := s.at(ctx, q.TextDocument.URI, nil)
	if err != nil || snap == nil {
		return nil, err
	}
	f := snap.File(name)
	start, end := fromPosition(f, q.Range.Start), fromPosition(f, q.Range.End)
	out := []codeAction{}
	for _, a := range snap.CodeActions(name, start, end) {
		r := a.Diagnostic.Range()
		d := toDiagnostic(snap.File(r.Filename), r, a.Diagnostic, "")
		out = append(out, codeAction{Title: a.Title, Kind: "quickfix", Diagnostics: []Diagnostic{d}, Edit: workspaceEdit(p, snap, a.Edits)})
	}
	slices.SortStableFunc(out, func(a, b codeAction) int { return strings.Compare(a.Title, b.Title) })
	return out, nil
}
