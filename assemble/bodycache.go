package assemble

import (
	"reflect"
	"sync"

	"github.com/promptc/promptc/templates"
)

// BodyCache keeps the parsed bodies of one compile for the next compile of the same project to reuse (see
// CompileCached): a language server compiles the project at every keystroke, and all but the edited blocks are as
// they were (docs/editors.md). Only the bodies of the last compile are kept. It is safe for concurrent use;
// compiles through one cache then wait for each other.
type BodyCache struct {
	mu     sync.Mutex
	consts templates.Consts // what the parser was made with
	p      *templates.Parser
	bodies map[string]cachedBody
	// parsed counts the bodies parsed with p since it was made: past a bound the parser is made anew, so that the
	// executors its function sets keep for the bodies of every compile do not pile up over an editing session.
	parsed int
}

// cachedBody is a body as parsed, with what parsing it read of its block.
type cachedBody struct {
	body *templates.Body
	text string
	raw  bool
}

// NewBodyCache returns an empty cache.
func NewBodyCache() *BodyCache { return &BodyCache{} }

// parser returns the parser for a compile with constants consts, and the bodies it parsed that may be reused: the
// cache's, when its parser was made with the same constants. It locks c until unlock. A nil c gives a new parser.
func (c *BodyCache) parser(consts templates.Consts, blocks int) (*templates.Parser, map[string]cachedBody) {
	if c == nil {
		return templates.NewParser(consts), nil
	}
	c.mu.Lock()
	if c.p == nil || c.parsed > 2*blocks+1024 || !reflect.DeepEqual(c.consts, consts) {
		c.p, c.consts, c.bodies, c.parsed = templates.NewParser(consts), consts, nil, 0
	}
	return c.p, c.bodies
}

// unlock unlocks c, locked by parser.
func (c *BodyCache) unlock() {
	if c != nil {
		c.mu.Unlock()
	}
}

// keep records the bodies of a compile for the next.
func (c *BodyCache) keep(out []compiledBlock) {
	if c == nil {
		return
	}
	next := make(map[string]cachedBody, len(out))
	for _, cb := range out {
		if cb.c == nil {
			continue
		}
		b := cb.c.Block
		if prev, ok := c.bodies[b.ID]; !ok || prev.text != b.Body || prev.raw != b.Raw {
			c.parsed++
		}
		next[b.ID] = cachedBody{body: cb.c.body, text: b.Body, raw: b.Raw}
	}
	c.bodies = next
}
