package blocks

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// ParseValues reads variable values from a JSON object or a TOML document: a flat table of name = value. The format
// is taken from the file name's extension (.json or .toml), or else from the first non-space byte ("{" means JSON).
// The values are checked against their declarations only when they are rendered.
func ParseValues(name string, data []byte) (Values, Diagnostics) {
	text, bad, ok := Normalize(data)
	if !ok {
		return nil, Diagnostics{{Summary: "invalid UTF-8: value files must be UTF-8 encoded", Subject: &Range{Filename: name, Start: bad, End: bad}}}
	}
	f := NewFile(name, text)
	isJSON := strings.HasSuffix(name, ".json")
	if !isJSON && !strings.HasSuffix(name, ".toml") {
		isJSON = strings.HasPrefix(strings.TrimSpace(text), "{")
	}
	vals := Values{}
	if isJSON {
		dec := json.NewDecoder(strings.NewReader(text))
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			at := FileRange(name)
			var se *json.SyntaxError
			var te *json.UnmarshalTypeError
			switch {
			case errors.As(err, &se):
				at = f.Range(int(se.Offset), int(se.Offset))
			case errors.As(err, &te):
				at = f.Range(int(te.Offset), int(te.Offset))
				err = errors.New("the file must hold one JSON object of variable values")
			}
			return nil, Diagnostics{{Summary: "invalid JSON: " + err.Error(), Subject: &at}}
		}
		if _, err := dec.Token(); err != io.EOF {
			return nil, Diagnostics{{Summary: "invalid JSON: unexpected data after the object of variable values", Subject: FileRange(name).Ptr()}}
		}
		if m == nil {
			return nil, Diagnostics{{Summary: "the file must hold one JSON object of variable values, not null", Subject: f.Range(0, 0).Ptr()}}
		}
		for k, v := range m {
			vals[k] = v
		}
		return vals, nil
	}
	m, _, d := parseTOML(f)
	if d != nil {
		return nil, Diagnostics{*d}
	}
	for k, v := range m {
		vals[k] = v
	}
	return vals, nil
}
