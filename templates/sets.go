package templates

import (
	"fmt"
	"iter"
	"reflect"
	"slices"
	"sort"

	"github.com/promptc/promptc/blocks"
)

// Set and map helpers with sprig's names and argument order (docs/reference.md, "Sets and dicts"): dict, set,
// hasKey, has and uniq. Each compares text as it was given, before escaping, and keeps every value it is given as
// it is, so that a value keeps its trust wherever it goes: {{index $d "k"}} prints the value escaped by its own
// trust, as {{.x}} would.

// setFuncs are the functions of this file, added to FuncNames.
var setFuncs = []string{"dict", "set", "hasKey", "has", "uniq"}

func init() { FuncNames = append(FuncNames, setFuncs...); slices.Sort(FuncNames) }

// withSets adds the functions of this file to a function map.
func (f *funcs) withSets(m map[string]any) {
	m["dict"] = f.dict
	m["set"] = f.set
	m["hasKey"] = hasKey
	m["has"] = has
	m["uniq"] = f.uniq
}

// Dict is what dict makes: values by text key, which set adds to, hasKey tests, index and .key read, and range
// walks in key order (byte order), like a lookup table. A key may come from a value ({{set $seen .slug true}}):
// the key is the value's text before escaping, and a range gives it back as a value of its trust, escaped where
// it is printed, so that no dict can turn a value into the author's text. A dict lives for one execution of the
// body that made it; it is never printed whole (an error: print its entries with range, or encode it with json).
type Dict map[string]any

// Format writes no entry of the dict: a dict printed whole is an error (see printDict), and nothing a value holds
// may reach the output unescaped through a path that forgot it.
func (d Dict) Format(st fmt.State, _ rune) { fmt.Fprintf(st, "dict(%d keys)", len(d)) }

// dictInfo is what the execution knows of a dict it made: the trust of each key that came from a value (none:
// every key is the author's), and the bytes its keys and values hold, which MaxOutput bounds.
type dictInfo struct {
	d     Dict // keeps the map alive, so that no other dict can take its address while the execution runs
	trust map[string]blocks.Trust
	size  int
}

// info returns what the execution knows of d, made empty on first use.
func (f *funcs) info(d Dict) *dictInfo {
	p := reflect.ValueOf(d).Pointer()
	if in, ok := f.dicts[p]; ok {
		return in
	}
	if f.dicts == nil {
		f.dicts = map[uintptr]*dictInfo{}
	}
	in := &dictInfo{d: d}
	f.dicts[p] = in
	return in
}

// keyTrust returns the trust of key k of d: trusted unless it came from a value of another trust.
func (f *funcs) keyTrust(d Dict, k string) blocks.Trust {
	if in, ok := f.dicts[reflect.ValueOf(d).Pointer()]; ok {
		if t, ok := in.trust[k]; ok {
			return t
		}
		return blocks.Trusted
	}
	return blocks.Untrusted // a dict this execution did not make: as strict as there is
}

// put sets key kv of d to v, for fn, keeping the key's trust and the dict's size within MaxOutput.
func (f *funcs) put(fn string, d Dict, i int, kv, v any) error {
	k, trust, ok := textOf(kv)
	if !ok {
		return fmt.Errorf("%s: key %d must be text, not %s", fn, i, describe(kv))
	}
	in := f.info(d)
	n := len(k) + jsonFloor(v, 0, 0)
	old, had := d[k]
	if had {
		in.size -= len(k) + jsonFloor(old, 0, 0)
	}
	if in.size+n > MaxOutput {
		return f.room(fn, in.size+n)
	}
	if f.st != nil {
		if err := f.st.work(n); err != nil {
			return err
		}
	}
	in.size += n
	if t, seen := in.trust[k]; seen {
		in.trust[k] = stricter(t, trust) // the same text from a value and from the author: escaped as the value
	} else if trust != blocks.Trusted {
		if in.trust == nil {
			in.trust = map[string]blocks.Trust{}
		}
		in.trust[k] = trust
	}
	d[k] = v
	return nil
}

// dict is dict KEY VALUE...: a new dict of the pairs, a later pair replacing an earlier one with the same key.
func (f *funcs) dict(pairs ...any) (any, error) {
	if len(pairs)%2 != 0 {
		return nil, fmt.Errorf("dict takes pairs of a key and a value (dict KEY VALUE ...), but got %d arguments", len(pairs))
	}
	d := make(Dict, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		if err := f.put("dict", d, i/2+1, pairs[i], pairs[i+1]); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// set is set DICT KEY VALUE: DICT with KEY set to VALUE, changed in place and returned, as sprig's set is
// ({{$_ := set $seen .slug true}}).
func (f *funcs) set(dv, kv, v any) (any, error) {
	d, ok := dv.(Dict)
	if !ok {
		return nil, fmt.Errorf("set takes a dict first (set DICT KEY VALUE, the dict made with dict), not %s", describe(dv))
	}
	if err := f.put("set", d, 1, kv, v); err != nil {
		return nil, err
	}
	return d, nil
}

// hasKey is hasKey DICT KEY: whether DICT (a dict, or a record) has an entry KEY.
func hasKey(dv, kv any) (bool, error) {
	k, _, ok := textOf(kv)
	if !ok {
		return false, fmt.Errorf("hasKey: the key must be text, not %s", describe(kv))
	}
	switch d := dv.(type) {
	case Dict:
		_, ok := d[k]
		return ok, nil
	case map[string]any:
		_, ok := d[k]
		return ok, nil
	}
	return false, fmt.Errorf("hasKey takes a dict or a record first (hasKey DICT KEY), not %s", describe(dv))
}

// has is has NEEDLE LIST: whether LIST (a list of strings) holds NEEDLE, compared as text before escaping.
func has(needle, list any) (bool, error) {
	items, err := setItems("has", list)
	if err != nil {
		return false, err
	}
	for _, it := range items {
		if equal(it, needle) {
			return true, nil
		}
	}
	return false, nil
}

// uniq is uniq LIST: the items of LIST (a list of strings) without repeats, each kept where it first occurs, as it
// is (a value with its trust); two items are the same when their text before escaping is.
func (f *funcs) uniq(list any) (any, error) {
	if strs, ok := list.([]string); ok {
		seen := make(map[string]bool, len(strs))
		out := make([]string, 0, len(strs))
		for _, s := range strs {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		return out, f.charge("uniq", len(strs), stringsFloor([]any{out}))
	}
	items, err := setItems("uniq", list)
	if err != nil || items == nil {
		return list, err
	}
	seen := make(map[string]bool, len(items))
	out := make([]any, 0, len(items))
	n := 0
	for _, it := range items {
		s, _, _ := textOf(it)
		if !seen[s] {
			seen[s] = true
			out = append(out, it)
			n += len(s)
		}
	}
	return out, f.charge("uniq", len(items), n)
}

// charge checks a collection result of n bytes against MaxOutput and charges the work of items items to the
// execution's budget.
func (f *funcs) charge(fn string, items, n int) error {
	if err := f.room(fn, n); err != nil {
		return err
	}
	if f.st != nil {
		return f.st.work(items + n)
	}
	return nil
}

// setItems returns the items of a list of strings (of any trust), for fn; records are refused with the way to
// compare them by a field.
func setItems(fn string, list any) ([]any, error) {
	switch list.(type) {
	case []map[string]any, map[string]any:
		return nil, fmt.Errorf("%s works on a list of strings, not records: to keep one record per value of a field, remember the values seen in a dict ({{if not (hasKey $seen .slug)}}{{$_ := set $seen .slug true}}…{{end}})", fn)
	case Dict:
		return nil, fmt.Errorf("%s works on a list of strings, not a dict: test a dict's keys with hasKey", fn)
	}
	items, err := textList(list)
	if err != nil {
		return nil, fmt.Errorf("%s works on a list of strings: %v", fn, err)
	}
	return items, nil
}

// rangeDict is what a range over a dict walks: its entries in key order, each key a value of the trust it was
// given with. With fewer than two variables a range gives the values, as over a map.
func (f *funcs) rangeDict(off, decls, weight int, d Dict) (any, error) {
	if len(d) > f.st.steps/weight {
		return nil, &rangeError{off: off}
	}
	f.st.steps -= len(d) * weight
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if decls < 2 {
		return iter.Seq[any](func(yield func(any) bool) {
			for _, k := range keys {
				if !yield(d[k]) {
					return
				}
			}
		}), nil
	}
	return iter.Seq2[any, any](func(yield func(any, any) bool) {
		for _, k := range keys {
			if !yield(tagged(k, f.keyTrust(d, k)), d[k]) {
				return
			}
		}
	}), nil
}

// printDict is what a body that makes dicts prints with (see Parse): printer.printAny, but a dict printed whole
// is an error.
func (f *funcs) printDict(v any) (string, error) {
	if _, ok := v.(Dict); ok {
		return "", errDictPrinted
	}
	return f.p.printAny(v), nil
}

var errDictPrinted = fmt.Errorf("a dict cannot be printed whole: print its entries ({{range $k, $v := $d}}…{{end}}, {{index $d \"key\"}}) or encode it with json; to set a key without printing, assign the result: {{$_ := set $d KEY VALUE}}")

// noDicts fails when an argument of fn is a dict, which print, printf, println, html, js and urlquery would format
// whole.
func noDicts(fn string, args []any) error {
	for _, a := range args {
		if _, ok := a.(Dict); ok {
			return fmt.Errorf("%s: %v", fn, errDictPrinted)
		}
	}
	return nil
}

// undict returns v with each dict in it (v itself, or a value of a dict) made a plain table whose keys are written
// as they print, each escaped by its trust, for json; and the strictest trust among those keys. Two keys that
// print the same are an error: the object would lose one.
func (f *funcs) undict(v any) (any, blocks.Trust, error) {
	d, ok := v.(Dict)
	if !ok {
		return v, blocks.Trusted, nil
	}
	out := make(map[string]any, len(d))
	from := make(map[string]string, len(d))
	trust := blocks.Trusted
	for _, k := range sortedKeys(d) {
		t := f.keyTrust(d, k)
		ek := f.p.escape(k, t)
		if prev, dup := from[ek]; dup {
			return nil, 0, fmt.Errorf("json: the keys %q and %q of a dict print the same, %q, so the object would lose one of them", prev, k, ek)
		}
		from[ek] = k
		val, vt, err := f.undict(d[k])
		if err != nil {
			return nil, 0, err
		}
		out[ek] = val
		trust = stricter(stricter(trust, t), vt)
	}
	return out, trust, nil
}
