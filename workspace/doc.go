// Package workspace installs a runbook into an agent's context file (CLAUDE.md, AGENTS.md,
// .github/copilot-instructions.md) and takes it out again, byte for byte (docs/workspaces.md).
//
// A context file usually belongs to someone else: a repository's own instructions, written by people. The runbook
// goes between a target's begin and end markers, as the block begin + "\n" + runbook + end + "\n", and every byte
// outside the block stays as it is:
//
//   - Install: a missing file is created holding the block alone; a file with a block has it replaced in place;
//     any other file gets "\n\n" and the block appended, whatever its last bytes are. Installing the same runbook
//     again writes nothing.
//   - Uninstall: the block goes, with the "\n\n" before it unless it starts the file; a file left empty by a block
//     that started it is removed (install created it).
//   - A marker counts only on a line of its own and outside the closed code fences of the user's text, so a
//     mention of it in prose, in a code span or in a fenced example is text. The block runs from the first
//     begin-marker line to the first end-marker line after it. A begin-marker line with no end-marker line after
//     it, or a second block, is refused (a MarkerError, naming the line): any guess could delete the user's text.
//
// So install then uninstall gives back the original bytes of every file that held no block, and edits made outside
// the block in between are kept. Bytes, Find, Installed and Uninstalled are these rules on bytes; Install, Check
// and Uninstall apply them to the files of a directory, atomically and under a lock; CheckReport is install
// --check's report; LoadTargets reads the targets of a project whose blocks need not compile, for Uninstall, and
// SelectTargets picks them by name as --target and --all-targets do.
package workspace
