package enum_test

import (
	"fmt"

	"github.com/promptc/promptc/internal/enum"
)

// Mode is a closed set as a type declares it: one Set, and methods that call it.
type Mode uint8

var modes = enum.New[Mode]("Mode", "mode", "text", "native").Hint(": use text or native")

func (m Mode) String() string                { return modes.String(m) }
func (m Mode) MarshalText() ([]byte, error)  { return modes.Marshal(m) }
func (m *Mode) UnmarshalText(b []byte) error { return modes.Set(m, string(b)) }
func (m *Mode) Set(s string) error           { return modes.Set(m, s) }

func ExampleSet() {
	var m Mode
	fmt.Println(m.Set("native"), m)
	fmt.Println(m.Set("natve"), m)
	// Output:
	// <nil> native
	// unknown mode "natve" (did you mean "native"?): use text or native native
}
