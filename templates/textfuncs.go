package templates

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/promptc/promptc/blocks"
)

// Bullets implements the bullets template function: "- item" for each item, joined by "\n", with no final newline.
// list is a []string or a []any holding only strings; an empty list gives "".
func Bullets(list any) (string, error) {
	items, err := stringList(list)
	if err != nil {
		return "", err
	}
	if len(items) == 0 {
		return "", nil
	}
	n := 0
	for _, it := range items {
		n += len("- \n") + len(it)
	}
	var b strings.Builder
	b.Grow(n)
	for i, it := range items {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("- ")
		b.WriteString(it)
	}
	return b.String(), nil
}

// Join implements the join template function: the items of list separated by sep, as strings.Join does. list is a
// []string or a []any holding only strings.
func Join(list any, sep string) (string, error) {
	items, err := stringList(list)
	if err != nil {
		return "", err
	}
	return strings.Join(items, sep), nil
}

// stringList returns the items of a []string, or of a []any holding only strings. A nil list is empty: it is what a
// template holds for a list that was never set.
func stringList(list any) ([]string, error) {
	switch l := list.(type) {
	case nil:
		return nil, nil
	case []string:
		return l, nil
	case []any:
		items := make([]string, len(l))
		for i, it := range l {
			s, _, ok := textOf(it)
			if !ok {
				return nil, fmt.Errorf("want a list of strings, but item %d is %s", i, blocks.DescribeValue(it)) // Go API: Go's words
			}
			items[i] = s
		}
		return items, nil
	}
	return nil, fmt.Errorf("want a list of strings, got %s", blocks.DescribeValue(list)) // Go API: Go's words
}

// JSON implements the json template function: v as canonical JSON, which is compact, has the keys of every object
// sorted (struct fields too), leaves <, > and & unescaped, and has no final newline. The same value always gives the
// same bytes.
func JSON(v any) (string, error) {
	first, err := encodeJSON(v)
	if err != nil {
		return "", err
	}
	switch v.(type) {
	case nil, string, []string, bool, int, int64, float64:
		return string(first), nil // no object inside: already canonical
	}
	// encoding/json sorts map keys but writes struct fields in declaration order; a round trip through any turns
	// every object into a map. UseNumber keeps numbers as they were first written.
	dec := json.NewDecoder(bytes.NewReader(first))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return "", err
	}
	out, err := encodeJSON(generic)
	if err != nil {
		return "", err
	}
	return string(out), nil
}

func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// textList returns the items of a list as a body sees it: []string, or []any holding strings of any trust.
func textList(list any) ([]any, error) {
	switch l := list.(type) {
	case nil:
		return nil, nil
	case []string:
		out := make([]any, len(l))
		for i, s := range l {
			out[i] = s
		}
		return out, nil
	case []any:
		for i, it := range l {
			if _, _, ok := textOf(it); !ok {
				return nil, fmt.Errorf("want a list, but item %d is %s", i, describe(it))
			}
		}
		return l, nil
	}
	return nil, fmt.Errorf("want a list, got %s", describe(list))
}
