package importer

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/promptc/promptc/source"
)

// Source is one markdown file to import.
type Source struct {
	// Name is the file's name as the user gave it: normalisations and errors name it, and the task is named
	// after its base name when Task is empty.
	Name string
	// Task is the task kind the file's runbook is imported as; empty: derived from Name (TaskName).
	Task string
	// Data is the file's content; it must be UTF-8.
	Data []byte
}

// Normalisation is one place where the imported runbook differs from its input, because promptc's rules cannot
// render the input's bytes there (trailing white space, irregular blank lines, a missing final newline, CRLF).
type Normalisation struct {
	File    string // the Source's Name
	Line    int    // 1-based line of the input
	Message string
}

// String formats n as "file:line: message".
func (n Normalisation) String() string {
	return fmt.Sprintf("%s:%d: %s", source.QuoteName(n.File), n.Line, n.Message)
}

// Result is an imported project, not yet written.
type Result struct {
	// Tasks are the task kinds, one per Source, in the order given.
	Tasks []string
	// Files are the project's sources (promptc.toml and blocks/*.toml), by slash path relative to the project
	// root. golden/ is written by Write, through the same calls as promptc check --update.
	Files map[string][]byte
	// Runbooks holds each task's runbook as the project renders it: its input after the normalisations.
	Runbooks map[string]string
	// Normalisations lists every difference between an input and its runbook, by file in input order, then line.
	Normalisations []Normalisation
	// Blocks is the number of blocks; Shared how many of them render in more than one task.
	Blocks, Shared int

	names []string // the Sources' names, by task
}

var taskPattern = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// TaskName derives a task name from a file name: the base name without its extension (.md, .markdown, .mdc,
// .txt), lower-cased, every run of other characters than a-z and 0-9 made one '_'; "task_" is put before a name
// that does not start with a letter. "review.md" is review, "CLAUDE.md" claude, "copilot-instructions.md"
// copilot_instructions, ".cursorrules" cursorrules.
func TaskName(file string) string {
	base := path.Base(strings.ReplaceAll(file, `\`, "/"))
	for _, ext := range []string{".md", ".markdown", ".mdc", ".txt"} {
		if len(base) > len(ext) && strings.EqualFold(base[len(base)-len(ext):], ext) {
			base = base[:len(base)-len(ext)]
			break
		}
	}
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(base) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(r)
			continue
		}
		under = true
	}
	name := b.String()
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		name = "task_" + name
	}
	return strings.TrimSuffix(name, "_")
}

// Import turns markdown files into a promptc project, one task kind per file, and checks it: the project is
// loaded and compiled, each task's runbook rendered (with the implicit fixture "default": the project has no
// variables) and compared with its input after the listed normalisations; any difference is an error, as is a
// lint finding promptc check would fail on.
//
// Each file is cut into sections at its ATX headings (outside code fences, after a blank line); the text before
// the first heading is a block without a title. A section becomes a block whose id comes from its heading
// (lower-cased, every run of other characters than a-z and 0-9 a '-', made unique), with the heading as title and
// level when "#"×level + " " + title, a blank line and the text reproduce it, and written in the body otherwise.
// A section whose text is identical in several files is one block gated to those tasks (global when it is in all
// of them), as long as the files order it alike: the files are merged in order, each along the longest sequence of
// sections it shares with those before it, and a section outside that sequence is a block of its own. Bodies
// holding "{{" are raw.
//
// The error is about the input (a file over MaxSourceBytes, or one that would make a file of the project larger than
// promptc reads, invalid UTF-8, two files giving one task name, a task name promptc refuses) or a
// failed verification.
func Import(files []Source) (*Result, error) {
	if len(files) == 0 {
		return nil, errors.New("no files to import")
	}
	res := &Result{Files: map[string][]byte{}, Runbooks: map[string]string{}}
	seen := map[string]string{}
	docs := make([]*document, len(files))
	for i, f := range files {
		task := f.Task
		if task == "" {
			task = TaskName(f.Name)
		} else if !taskPattern.MatchString(task) {
			return nil, fmt.Errorf("task name %q for %s is not valid: task names match [a-z][a-z0-9_]*", task, f.Name)
		}
		if prev, dup := seen[task]; dup {
			return nil, fmt.Errorf("%s and %s are both imported as task %q: name the tasks yourself (promptc import --task NAME=FILE)", prev, f.Name, task)
		}
		seen[task] = f.Name
		if len(f.Data) > MaxSourceBytes {
			return nil, tooLarge(f.Name)
		}
		d, err := parse(f.Name, f.Data)
		if err != nil {
			return nil, err
		}
		docs[i] = d
		res.Tasks = append(res.Tasks, task)
		res.names = append(res.names, f.Name)
		res.Runbooks[task] = d.want
		res.Normalisations = append(res.Normalisations, d.norms...)
	}
	entries := merge(docs)
	res.emit(files, entries)
	if err := res.verify(); err != nil {
		return nil, err
	}
	return res, nil
}

// entry is a block of the merged runbook order: a section and the tasks (indexes) whose files hold it there.
type entry struct {
	section
	tasks []int
	id    string
	file  int // the first file holding it, for messages
}

// merge orders the sections of every file in one list, each file's sections a subsequence of it in their order.
// A file is aligned with the list built so far along a longest common subsequence of identical sections (see
// commonSections); those become one entry, every other section an entry of its own. Between two shared sections,
// the entries already in the list come first, then the file's own.
func merge(docs []*document) []*entry {
	keys := map[string]int{} // every distinct section text, numbered: sections compare as ints
	key := func(text string) int {
		k, ok := keys[text]
		if !ok {
			k = len(keys)
			keys[text] = k
		}
		return k
	}
	var list []*entry
	var listKeys []int
	for fi, d := range docs {
		secs := make([]int, len(d.sections))
		for j, s := range d.sections {
			secs[j] = key(s.text)
		}
		pairs := commonSections(listKeys, secs)
		out := make([]*entry, 0, len(list)+len(secs))
		outKeys := make([]int, 0, cap(out))
		i, j := 0, 0
		add := func(e *entry, k int) {
			out = append(out, e)
			outKeys = append(outKeys, k)
		}
		for _, p := range append(pairs, [2]int{len(list), len(secs)}) {
			for ; i < p[0]; i++ {
				add(list[i], listKeys[i])
			}
			for ; j < p[1]; j++ {
				add(&entry{section: d.sections[j], tasks: []int{fi}, file: fi}, secs[j])
			}
			if i < len(list) && j < len(secs) {
				list[i].tasks = append(list[i].tasks, fi)
				add(list[i], listKeys[i])
				i, j = i+1, j+1
			}
		}
		list, listKeys = out, outKeys
	}
	return list
}

// slug makes a block id from a heading: lower-case a-z and 0-9 kept, every other run a '-', at most 48 bytes
// (cut at a '-' when there is one).
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	id := b.String()
	if len(id) > 48 {
		id = id[:48]
		if k := strings.LastIndexByte(id, '-'); k > 16 {
			id = id[:k]
		}
	}
	return strings.Trim(id, "-")
}

// assignIDs gives every entry a unique id: the slug of its heading ("preamble" before the first heading,
// "section" for a heading without letters or digits); a taken id gets the task's name when the entry is in one
// task, else (or when that is taken too) the first free "-2", "-3", ….
func assignIDs(entries []*entry, tasks []string) {
	taken := map[string]bool{}
	next := map[string]int{} // per base, the lowest suffix that may be free
	for _, e := range entries {
		base := "preamble"
		if e.name != "" || e.title != "" {
			base = slug(e.name)
		}
		if base == "" {
			base = "section"
		}
		id := base
		if taken[id] && len(e.tasks) == 1 {
			id = base + "-" + strings.ReplaceAll(tasks[e.tasks[0]], "_", "-")
		}
		if taken[id] {
			// Every suffix below next[base] is taken, and ids are never freed: the search resumes there, so that n
			// sections of one heading cost n look-ups, not n²/2.
			n := max(2, next[base])
			for taken[base+"-"+strconv.Itoa(n)] {
				n++
			}
			id = base + "-" + strconv.Itoa(n)
			next[base] = n + 1
		}
		taken[id] = true
		e.id = id
	}
}

func taskList(tasks []string, idx []int) []string {
	out := make([]string, len(idx))
	for k, i := range idx {
		out[k] = tasks[i] // idx ascends: the files are merged in order
	}
	return out
}
