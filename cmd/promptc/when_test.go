package main

import (
	"encoding"
	"flag"
	"fmt"
	"testing"
)

var (
	_ flag.Value               = new(when)
	_ encoding.TextUnmarshaler = new(when)
)

func TestWhenSet(t *testing.T) {
	tests := []struct {
		in      string
		want    when
		wantErr string
	}{
		{in: "auto", want: whenAuto},
		{in: "always", want: whenAlways},
		{in: "never", want: whenNever},
		{in: "sometimes", wantErr: `must be auto, always or never, not "sometimes"`},
		{in: "", wantErr: `must be auto, always or never, not ""`},
		{in: "Always", wantErr: `must be auto, always or never, not "Always"`},
		{in: "always ", wantErr: `must be auto, always or never, not "always "`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			w := whenNever // a failed Set leaves the value alone
			err := w.Set(tt.in)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr || w != whenNever {
					t.Fatalf("Set(%q) = %v, value %v; want error %s and the value unchanged", tt.in, err, w, tt.wantErr)
				}
				return
			}
			if err != nil || w != tt.want {
				t.Fatalf("Set(%q) = %v, value %v; want %v", tt.in, err, w, tt.want)
			}
			if w.String() != tt.in {
				t.Errorf("String() = %q, want %q", w.String(), tt.in)
			}
			var u when
			if err := u.UnmarshalText([]byte(tt.in)); err != nil || u != tt.want {
				t.Errorf("UnmarshalText(%q) = %v, value %v", tt.in, err, u)
			}
		})
	}
	if got := when(9).String(); got != "When(9)" {
		t.Errorf("when(9).String() = %q", got)
	}
}

func TestWhenOn(t *testing.T) {
	for _, tt := range []struct {
		w          when
		auto, want bool
	}{
		{whenAuto, true, true}, {whenAuto, false, false},
		{whenAlways, false, true}, {whenAlways, true, true},
		{whenNever, true, false}, {whenNever, false, false},
	} {
		if got := tt.w.On(tt.auto); got != tt.want {
			t.Errorf("%v.On(%v) = %v, want %v", tt.w, tt.auto, got, tt.want)
		}
	}
}

// A When is a command-line flag: --color=always turns colour on even when the output is not a terminal.
func Example_when() {
	fs := flag.NewFlagSet("promptc", flag.ContinueOnError)
	var color when
	fs.Var(&color, "color", "colour reports WHEN: auto, always or never")
	if err := fs.Parse([]string{"--color=always"}); err != nil {
		fmt.Println(err)
	}
	stdoutIsTerminal := false
	fmt.Println(color, color.On(stdoutIsTerminal))
	// Output:
	// always true
}
