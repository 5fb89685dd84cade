// Package version words what promptc --version prints from the link-time version and the build information.
package version

import (
	"runtime/debug"
	"strings"
)

// Module is the version promptc reports: the one set at link time when there is one, else the main module's
// version from the build information (v1.2.3 for go install …@v1.2.3; a pseudo-version or "(devel)" for a build
// from a clone), else "(devel)".
func Module(linked string, info *debug.BuildInfo) string {
	switch {
	case linked != "":
		return linked
	case info != nil && info.Main.Version != "":
		return info.Main.Version
	}
	return "(devel)"
}

// Text is what promptc --version prints: the version, then what the build information says of the source
// (the VCS revision, its commit time and whether the work tree had uncommitted changes) and the Go toolchain, each
// on its own line when known. go build and go install record the revision when they build inside a git work tree
// (-buildvcs); go install …@version and go test do not.
//
// linkedRev is the revision set at link time (make build and make install set it from git), used when the build
// information has none: with -buildvcs=false, common in CI images, go build records no VCS settings.
func Text(linked, linkedRev string, info *debug.BuildInfo) string {
	var b strings.Builder
	b.WriteString("promptc " + Module(linked, info) + "\n")
	if info == nil {
		info = &debug.BuildInfo{}
	}
	var rev, at string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		rev = linkedRev
	}
	if rev != "" {
		b.WriteString("revision " + rev)
		var notes []string
		if at != "" {
			notes = append(notes, at)
		}
		if modified {
			notes = append(notes, "modified")
		}
		if len(notes) > 0 {
			b.WriteString(" (" + strings.Join(notes, ", ") + ")")
		}
		b.WriteByte('\n')
	}
	if info.GoVersion != "" {
		b.WriteString("built with " + info.GoVersion + "\n")
	}
	return b.String()
}
