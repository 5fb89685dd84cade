package projection

import (
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/enum"
)

// ToolsMode is how a task's [[tool]]s reach the model (docs/providers.md#tools): the zero value, ToolsText, leaves
// them to the runbook ({{ tools }} renders them as text); ToolsNative sends them as the provider's native tools
// array. It implements flag.Value, so a flag holding one cannot hold a name outside the set.
type ToolsMode uint8

const (
	// ToolsText: the tools reach the model only as the runbook's text.
	ToolsText ToolsMode = iota
	// ToolsNative: the tools are sent as the provider's tools array (Options.Tools).
	ToolsNative
)

var toolsModeNames = []string{"text", "native"}

var toolsModes = enum.New[ToolsMode]("ToolsMode", "tools mode", toolsModeNames...).Hint(": use " + enum.OrList(toolsModeNames))

func (m ToolsMode) String() string { return toolsModes.String(m) }

// ParseToolsMode returns the mode named s: text or native.
func ParseToolsMode(s string) (ToolsMode, error) { return toolsModes.Parse(s) }

// Set parses s into m (flag.Value).
func (m *ToolsMode) Set(s string) error { return toolsModes.Set(m, s) }

// MarshalText returns m's name.
func (m ToolsMode) MarshalText() ([]byte, error) { return toolsModes.Marshal(m) }

// UnmarshalText parses a tools mode's name.
func (m *ToolsMode) UnmarshalText(b []byte) error { return toolsModes.Set(m, string(b)) }

// Tools returns what Options.Tools holds for task under m: nil for ToolsText, the task's tools in their order
// (blocks.Project.ToolsFor) for ToolsNative.
func (m ToolsMode) Tools(p *blocks.Project, task string) []*blocks.Tool {
	if m != ToolsNative {
		return nil
	}
	return p.ToolsFor(task)
}
