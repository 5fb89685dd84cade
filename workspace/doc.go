// Package workspace installs a runbook into an agent's context file (CLAUDE.md, AGENTS.md,
// .github/copilot-instructions.md) and takes it out again, byte for byte (DESIGN §6).
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
//   - The block is found from the first begin marker to the first end marker after it (and one "\n"); a begin
//     marker with no end marker after it is a write that stopped halfway, and the block runs to the end of the file.
//
// So install then uninstall gives back the original bytes whenever the file held no begin marker, and edits made
// outside the block in between are kept. Block, Find, Installed and Uninstalled are these rules on bytes; Install,
// Check and Uninstall apply them to the files of a directory, atomically and under a lock.
package workspace
