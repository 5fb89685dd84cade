package blocks

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/BurntSushi/toml"
)

// ParseValues reads variable values from a JSON object or a TOML document: a flat table of name = value. The format
// is taken from the file name's extension (.json or .toml), or else from the first non-space byte ("{" means JSON).
// The values are checked against their declarations only when they are rendered.
func ParseValues(name string, data []byte) (Values, Diagnostics) {
	text, line, col, ok := Normalize(data)
	if !ok {
		return nil, Diagnostics{{Pos{name, line, col}, "invalid UTF-8: value files must be UTF-8 encoded"}}
	}
	isJSON := strings.HasSuffix(name, ".json")
	if !isJSON && !strings.HasSuffix(name, ".toml") {
		isJSON = strings.HasPrefix(strings.TrimSpace(text), "{")
	}
	vals := Values{}
	if isJSON {
		dec := json.NewDecoder(strings.NewReader(text))
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			pos := Pos{File: name}
			var se *json.SyntaxError
			var te *json.UnmarshalTypeError
			switch {
			case errors.As(err, &se):
				pos.Line, pos.Col = LineCol(text, int(se.Offset))
			case errors.As(err, &te):
				pos.Line, pos.Col = LineCol(text, int(te.Offset))
				err = errors.New("the file must hold one JSON object of variable values")
			}
			return nil, Diagnostics{{pos, "invalid JSON: " + err.Error()}}
		}
		if _, err := dec.Token(); err != io.EOF {
			return nil, Diagnostics{{Pos{File: name}, "invalid JSON: unexpected data after the object of variable values"}}
		}
		if m == nil {
			return nil, Diagnostics{{Pos{File: name, Line: 1, Col: 1}, "the file must hold one JSON object of variable values, not null"}}
		}
		for k, v := range m {
			vals[k] = v
		}
		return vals, nil
	}
	var m map[string]any
	if _, err := toml.NewDecoder(bytes.NewReader([]byte(text))).Decode(&m); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, Diagnostics{{Pos{name, pe.Position.Line, pe.Position.Col}, "TOML syntax error: " + pe.Message}}
		}
		return nil, Diagnostics{{Pos{File: name}, "TOML error: " + err.Error()}}
	}
	for k, v := range m {
		vals[k] = v
	}
	return vals, nil
}
