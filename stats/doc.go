// Package stats measures a project's prompts, as promptc stats does: bytes and tokens per task, block and scope of
// each task's sampled runbook, where the global and task prefixes end, and the prefix every task shares.
package stats
