// Package explain answers why a compiled project's output is what it is: Block says whether a block renders in a
// task and why (gate, except, when, replaces, scope), and where it sits; Line names the block and source behind a
// line of an artifact.
package explain
