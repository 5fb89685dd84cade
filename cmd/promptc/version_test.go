package main

import (
	"os/exec"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/promptc/promptc/internal/testenv"
	buildversion "github.com/promptc/promptc/internal/version"
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
		rev    string // linked revision
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
		{
			name:   "make install with -buildvcs=false: the linked version and revision",
			linked: "v0.0.0-20261201193800-7b2735b1c0de",
			rev:    "7b2735b1c0de0123456789abcdef0123456789ab",
			info:   &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}},
			want: "promptc v0.0.0-20261201193800-7b2735b1c0de\n" +
				"revision 7b2735b1c0de0123456789abcdef0123456789ab\nbuilt with go1.26.0\n",
		},
		{
			name: "the build information's revision wins over the linked one",
			rev:  "ffff",
			info: &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs[2:3]},
			want: "promptc (devel)\nrevision 0123456789abcdef0123456789abcdef01234567\n",
		},
		{
			name: "linked revision without build information",
			rev:  "abc",
			want: "promptc (devel)\nrevision abc\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := buildversion.Text(tt.linked, tt.rev, tt.info); got != tt.want {
				t.Errorf("version.Text = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestMakeStampsVersion: make build and make install link the version and revision from git, so that --version
// names them where go build records no VCS information (-buildvcs=false). Skipped outside a git work tree (a copy
// of the sources without .git), except in CI, which tests a clone.
func TestMakeStampsVersion(t *testing.T) {
	testenv.LookPath(t, "make")
	rev, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		testenv.Absent(t, "not in a git work tree: %v", err)
	}
	for _, target := range []string{"build", "install"} {
		out, err := exec.Command("make", "-n", "-C", "../..", target).CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, out)
		}
		cmd := string(out)
		if !strings.Contains(cmd, "-X main.revision="+strings.TrimSpace(string(rev))) {
			t.Errorf("make %s does not link the revision:\n%s", target, cmd)
		}
		if !regexp.MustCompile(`-X main\.version=v\d+\.\d+\.\d+\S*`).MatchString(cmd) {
			t.Errorf("make %s does not link a version:\n%s", target, cmd)
		}
	}
}
