// Package preview is promptc serve: a local web page that shows how a project's runbooks assemble (every artifact
// with its blocks outlined by scope, where the shared prefixes end and where each provider's cache breakpoints go),
// the stats and the cache simulation as charts, and the lint findings, updated live as the sources change. The data
// of every view is a JSON endpoint built from the library's own calls, so other tools can read it. With a base
// revision (Options.Base) every view also shows the change since it, as promptc diff reports it; Export writes the
// whole page as one self-contained file that opens with no server. docs/preview.md describes the page and the
// endpoints.
package preview
