// Package promptc is the pipeline every front end of promptc opens: the promptc command, the preview (promptc
// serve), the language server and a Go program's own code.
//
// Open (or OpenFS, or OpenOverlay for an editor's unsaved buffers) loads and compiles a project once, and the
// Pipeline it returns holds what is built from it, each on first use and shared: the artifacts (Artifacts), the model
// catalog (Catalog, the built-in rows with the project's [[model]] rows over them) and the token counter. Pipeline.Task
// checks a task's name, the one place a name is checked; a Task always names a task of the project. From a Task:
//
//   - Render renders a runbook or a turn message from a Request, whose session values come from a fixture, a values
//     file or Go values, and whose turn (Turn) from a turn of the fixture, a values file or Go values;
//   - Input, Options and Projection build one provider request with its cache markers (docs/providers.md);
//   - Replays and Simulate replay the task's fixtures against a simulated prompt cache;
//
// and from the Pipeline, Lint (docs/lint.md), Stats (docs/stats.md) and Predict (promptc usage --predict,
// docs/usage.md). Errors that come from the project's sources are a source.Diagnostics (errors.As finds it), each
// naming file:line:col.
//
// The packages below it (assemble, projection, lint, stats, usage) stay usable on their own; this package is how
// their steps are put together in the order every front end needs.
package promptc
