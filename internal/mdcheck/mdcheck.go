// Package mdcheck reads Markdown with a real CommonMark parser (goldmark), for the tests that hold promptc's own
// reading of Markdown to it (docs/values.md#markdown-and-structure). Only tests import it.
package mdcheck

import (
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Heading is a heading that is a child of the document itself, not of a list item or a block quote.
type Heading struct {
	Level int
	Text  string
}

// Outline returns the top-level headings of doc, in order.
func Outline(doc string) []Heading {
	src := []byte(doc)
	root := parse(src)
	var out []Heading
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			out = append(out, Heading{Level: h.Level, Text: lines(h, src)})
		}
	}
	return out
}

// Headings returns every heading of doc outside block quotes, at any depth (in list items too), in order, each
// as an ATX heading line would spell it: "## Title". A heading a quote holds is quoted text, read as background.
func Headings(doc string) []string {
	src := []byte(doc)
	var out []string
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Blockquote:
				continue
			case *ast.Heading:
				out = append(out, strings.Repeat("#", c.Level)+" "+lines(c, src))
				continue
			}
			if c.Type() == ast.TypeBlock {
				walk(c)
			}
		}
	}
	walk(parse(src))
	return out
}

// Place says where the first block holding needle lies: its kind ("Paragraph", "FencedCodeBlock", "HTMLBlock",
// "Heading", …) and the kinds of its ancestors up to the document, innermost first ("Document" last). ok is false
// when no block's text holds needle.
func Place(doc, needle string) (kind string, ancestors []string, ok bool) {
	src := []byte(doc)
	root := parse(src)
	var found ast.Node
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || found != nil || n.Type() != ast.TypeBlock {
			return ast.WalkContinue, nil
		}
		if strings.Contains(lines(n, src), needle) {
			found = n
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	if found == nil {
		return "", nil, false
	}
	for p := found.Parent(); p != nil; p = p.Parent() {
		ancestors = append(ancestors, p.Kind().String())
	}
	return found.Kind().String(), ancestors, true
}

// TopLevel reports whether the first block holding needle is a paragraph or heading that is a child of the
// document: not inside a code block, an HTML block, a list or a block quote.
func TopLevel(doc, needle string) bool {
	kind, anc, ok := Place(doc, needle)
	return ok && (kind == "Paragraph" || kind == "Heading") && len(anc) == 1
}

func parse(src []byte) ast.Node {
	return goldmark.DefaultParser().Parse(text.NewReader(src))
}

// lines joins the source lines a block holds (a leaf block's; "" for a container).
func lines(n ast.Node, src []byte) string {
	var b strings.Builder
	segs := n.Lines()
	for i := 0; i < segs.Len(); i++ {
		s := segs.At(i)
		b.Write(s.Value(src))
	}
	return strings.TrimRight(b.String(), "\n")
}
