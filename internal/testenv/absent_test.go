package testenv

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a test was stopped instead of stopping it.
type recorder struct {
	testing.TB
	how, msg string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.how, r.msg = "fail", fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Skip(args ...any) {
	r.how, r.msg = "skip", fmt.Sprint(args...)
	runtime.Goexit()
}

// stop runs f with a recorder in a goroutine of its own, as the testing package runs a test, so that Goexit ends f
// and not this test.
func stop(t *testing.T, f func(testing.TB)) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

func TestCI(t *testing.T) {
	for v, want := range map[string]bool{
		"": false, "0": false, "false": false, "FALSE": false, "False": false,
		"true": true, "1": true, "yes": true, "TRUE": true,
	} {
		t.Setenv("CI", v)
		if got := CI(); got != want {
			t.Errorf("CI=%q: CI() = %v, want %v", v, got, want)
		}
	}
}

func TestAbsent(t *testing.T) {
	for _, tt := range []struct {
		ci, how, msg string
	}{
		{"", "skip", "no fifo here: EPERM"},
		{"false", "skip", "no fifo here: EPERM"},
		{"true", "fail", "no fifo here: EPERM (CI=true: a CI machine must have what the tests need, so this test fails rather than skips)"},
	} {
		t.Setenv("CI", tt.ci)
		r := stop(t, func(tb testing.TB) { Absent(tb, "no fifo here: %s", "EPERM") })
		if r.how != tt.how || r.msg != tt.msg {
			t.Errorf("CI=%q: Absent stopped the test with %s %q, want %s %q", tt.ci, r.how, r.msg, tt.how, tt.msg)
		}
	}
}

func TestLookPath(t *testing.T) {
	t.Setenv("CI", "true")
	t.Setenv("PATH", t.TempDir())
	r := stop(t, func(tb testing.TB) { LookPath(tb, "promptc-no-such-program") })
	if r.how != "fail" || !strings.HasPrefix(r.msg, "promptc-no-such-program is not on $PATH: ") {
		t.Errorf("LookPath of a missing program in CI: %s %q, want a failure naming it", r.how, r.msg)
	}
	t.Setenv("PATH", "/bin:/usr/bin")
	var got string
	r = stop(t, func(tb testing.TB) { got = LookPath(tb, "sh") })
	if r.how != "" || got == "" {
		t.Errorf("LookPath(sh): %q, stopped with %s %q, want its path", got, r.how, r.msg)
	}
}
