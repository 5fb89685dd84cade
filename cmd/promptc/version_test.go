package main

import (
	"runtime/debug"
	"testing"
)

// TestVersionText: --version names the linked version, else the module's, then the VCS revision and the Go
// toolchain as far as the build information knows them.
func TestVersionText(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "-buildmode", Value: "exe"},
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2025-03-04T05:06:07Z"},
		{Key: "vcs.modified", Value: "true"},
	}
	tests := []struct {
		name   string
		linked string
		info   *debug.BuildInfo
		want   string
	}{
		{
			name: "no build information",
			want: "promptc (devel)\n",
		},
		{
			name:   "linked version wins",
			linked: "1.2.3",
			info:   &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/promptc/promptc", Version: "v1.2.0"}},
			want:   "promptc 1.2.3\nbuilt with go1.26.0\n",
		},
		{
			name: "go install at a version",
			info: &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/promptc/promptc", Version: "v0.2.0"}},
			want: "promptc v0.2.0\nbuilt with go1.26.0\n",
		},
		{
			name: "a clone with uncommitted changes",
			info: &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/promptc/promptc",
				Version: "v0.0.0-20250304050607-0123456789ab+dirty"}, Settings: vcs},
			want: "promptc v0.0.0-20250304050607-0123456789ab+dirty\n" +
				"revision 0123456789abcdef0123456789abcdef01234567 (2025-03-04T05:06:07Z, modified)\n" +
				"built with go1.26.0\n",
		},
		{
			name: "a clean clone, revision only",
			info: &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs[2:3]},
			want: "promptc (devel)\nrevision 0123456789abcdef0123456789abcdef01234567\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionText(tt.linked, tt.info); got != tt.want {
				t.Errorf("versionText = %q, want %q", got, tt.want)
			}
		})
	}
}
