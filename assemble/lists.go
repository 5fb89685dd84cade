package assemble

import (
	"strings"

	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/templates"
)

// listConstUse checks how a body uses constant c (docs/reference.md, "[const]"): a list constant has no text of its
// own, so printing one is an error; a text constant has no items, so ranging over one is an error. at places a use,
// only when it is reported: placing it decodes the body's TOML string.
func listConstUse(b *blocks.Block, c *blocks.Const, u templates.Use, at func(templates.Use) source.Range) source.Diagnostics {
	var diags source.Diagnostics
	switch {
	case c == nil:
	case c.List != nil && u.Kind == templates.UsePrinted:
		diags.Errorf(at(u), "block %q prints list constant %q, which has items, not a text: walk it with {{range const %q}}…{{end}}, or join it with {{join (const %q) \", \"}}", b.ID, u.Name, u.Name, u.Name)
	case c.List == nil && c.Lookup == nil && u.Kind == templates.UseRange:
		diags.Errorf(at(u), "block %q ranges over text constant %q, which has no items: print it with {{const %q}}, or make it a list constant (%s = [\"…\", \"…\"])", b.ID, u.Name, u.Name, u.Name)
	}
	return diags
}

// listMarkers finds a target's marker in the items of list constant c, used by block b (see textMarkers).
func listMarkers(c *blocks.Const, b *blocks.Block, m marker, fix string) source.Diagnostics {
	var diags source.Diagnostics
	for _, it := range c.List {
		if strings.Contains(it, m.text) {
			diags.Errorf(c.Range, "list constant %q, used by block %q, holds the %s marker of target %q in an item: %s", c.Name, b.ID, m.which, m.target.Name, fix)
			break
		}
	}
	return diags
}
