package guard

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/promptc/promptc"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/internal/gitfs"
	"github.com/promptc/promptc/internal/plural"
	"github.com/promptc/promptc/projection"
	"github.com/promptc/promptc/report"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/usage"
)

// Log is the history of what each commit of a range invalidated (promptc log): the commits that changed a stable
// prefix, newest first, and how many others touched the project without changing one.
type Log struct {
	// Range is the revision range as given ("HEAD" when none was).
	Range string `json:"range"`
	// Commits are the commits that changed a stable prefix, newest first.
	Commits []LogCommit `json:"commits"`
	// Unchanged counts the commits that touched the project and changed no stable prefix (a turn message, a
	// comment, a fixture of no runbook).
	Unchanged int `json:"unchanged"`
	// Shallow names the oldest commit seen when the clone is shallow and its parent is cut off: that commit is
	// counted in Unchanged, since there is nothing to compare it with.
	Shallow *LogCommit `json:"shallow,omitempty"`
}

// LogCommit is one commit and the stable prefixes it changed.
type LogCommit struct {
	Commit  string `json:"commit"`
	Time    string `json:"commit_time"` // the committer time, RFC 3339 in UTC
	Subject string `json:"subject"`
	// Tasks are the tasks whose stable prefixes the commit changed, in task order.
	Tasks []LogTask `json:"tasks,omitempty"`
	// Prices are what the change costs at the traffic (Options.Traffic, else the commit's [traffic]); absent without.
	Prices []projection.ChangePrice `json:"prices,omitempty"`

	at time.Time
}

// LogTask is a task's stable prefix as one commit changed it: the block and scope of its first changed byte (of
// the runbook that loses the most), and the cached tokens that runbook loses.
type LogTask struct {
	Task              string `json:"task"`
	Block             string `json:"block,omitempty"`
	Scope             string `json:"scope,omitempty"`
	Source            string `json:"source,omitempty"`
	InvalidatedTokens int    `json:"invalidated_tokens"`
}

// ReadLog reads the history of the project at root over the git revision range rng ("" means HEAD: the commits of
// the current branch), as promptc log reports it. Each commit that touched the project (its manifest, blocks/,
// templates/ or fixtures/) is compiled once, from git objects as Diff reads a revision, and compared with its
// parent in that history, so the work is linear in commits times project size. A commit whose project does not
// compile, or has none, is compared as empty. The error says that root is not in a git work tree or that git
// knows no such range.
func ReadLog(root, rng string, opts Options) (*Log, error) {
	if rng == "" {
		rng = "HEAD"
	}
	commits, shallow, err := gitfs.Commits(root, rng)
	if err != nil {
		return nil, err
	}
	opts.Counter = opts.counter() // one counter for every commit's pipeline, comparison and price
	log := &Log{Range: rng, Commits: []LogCommit{}}
	progs := map[string]*promptc.Pipeline{}
	arts := map[string][]*assemble.Artifact{}
	build := func(rev string) error {
		if _, ok := progs[rev]; ok || rev == "" {
			return nil
		}
		fsys, err := gitfs.Open(root, rev)
		switch {
		case errors.Is(err, gitfs.ErrNoProject):
			progs[rev] = nil
			return nil
		case err != nil:
			return err
		}
		pl, diags := open(fsys, opts)
		var built []*assemble.Artifact
		if len(diags) == 0 {
			built, diags = pl.Program().Build()
		}
		if len(diags) > 0 {
			pl, built = nil, nil
		}
		progs[rev], arts[rev] = pl, built
		return nil
	}
	for i, c := range commits {
		if c.Parent == "" && shallow {
			log.Unchanged++
			log.Shallow = &LogCommit{Commit: c.Hash, Time: c.Time.Format(time.RFC3339), Subject: c.Subject}
			continue
		}
		if err := build(c.Hash); err != nil {
			return nil, err
		}
		if err := build(c.Parent); err != nil {
			return nil, err
		}
		rep := Compare(Side{Label: c.Parent, Dir: "a/", Arts: arts[c.Parent]}, Side{Label: c.Hash, Dir: "b/", Arts: arts[c.Hash]}, opts.counter())
		lc := LogCommit{Commit: c.Hash, Time: c.Time.Format(time.RFC3339), Subject: c.Subject, Tasks: prefixChanges(rep), at: c.Time}
		if len(lc.Tasks) == 0 {
			log.Unchanged++
		} else {
			if pl := progs[c.Hash]; pl != nil {
				if lc.Prices, err = priceChange(progs[c.Parent].Program(), pl, rep, opts); err != nil {
					return nil, err
				}
			}
			log.Commits = append(log.Commits, lc)
		}
		// An older commit's program is needed only as the parent of the next: drop what no later commit reads.
		if i+1 < len(commits) {
			for rev := range progs {
				if rev != commits[i+1].Hash && rev != commits[i+1].Parent {
					delete(progs, rev)
					delete(arts, rev)
				}
			}
		}
	}
	return log, nil
}

// Marks are the log's commits as usage.Series.Mark places them in periods: each with its commit time, the tasks
// whose prefix it changed and the most cached tokens it invalidated for one.
func (l *Log) Marks() []usage.Commit {
	out := make([]usage.Commit, 0, len(l.Commits))
	for _, c := range l.Commits {
		m := usage.Commit{Commit: c.Commit, Time: c.at, Subject: c.Subject}
		for _, t := range c.Tasks {
			m.Tasks = append(m.Tasks, t.Task)
			m.InvalidatedTokens = max(m.InvalidatedTokens, t.InvalidatedTokens)
		}
		out = append(out, m)
	}
	return out
}

// prefixChanges are the tasks whose stable prefix the report's runbook changes invalidate, each at its runbook
// that loses the most cached tokens (the first in path order among equals).
func prefixChanges(rep *Report) []LogTask {
	by := map[string]LogTask{}
	for _, c := range rep.Changes {
		if c.Kind != blocks.Runbook || c.InvalidatedTokens == 0 {
			continue
		}
		if t, ok := by[c.Task]; ok && t.InvalidatedTokens >= c.InvalidatedTokens {
			continue
		}
		t := LogTask{Task: c.Task, Block: c.Block, InvalidatedTokens: c.InvalidatedTokens}
		if c.attributed() {
			t.Scope = c.Scope.String()
		}
		if c.Source.Known() {
			t.Source = c.Source.String()
		}
		by[c.Task] = t
	}
	out := make([]LogTask, 0, len(by))
	for _, t := range by {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Task < out[j].Task })
	return out
}

// Title is the log's first line: "promptc log HEAD: 2 commits changed a stable prefix, 3 others changed none".
func (l *Log) Title() string {
	return fmt.Sprintf("promptc log %s: %s changed a stable prefix, %d %s changed none", source.QuoteName(l.Range),
		plural.Count(len(l.Commits), "commit"), l.Unchanged, plural.Noun(l.Unchanged, "other", "others"))
}

func (t LogTask) line() string {
	s := "task " + t.Task + ": "
	if t.Block != "" {
		s += "block " + t.Block
		if t.Source != "" {
			s += " (" + t.Source + ")"
		}
		if t.Scope != "" {
			s += ", scope " + t.Scope
		}
		s += ", "
	}
	return s + plural.Count(t.InvalidatedTokens, "token") + " of cached prefix invalidated"
}

func (l *Log) shallowNote() string {
	if l.Shallow == nil {
		return ""
	}
	return fmt.Sprintf("shallow clone: history seen back to commit %.12s (commit time %s), whose parent is not fetched\n", l.Shallow.Commit, l.Shallow.Time)
}

// WriteText writes the log for a terminal: the title, then per commit its short hash, commit time and subject,
// one line per task it changed and its price lines; a note when the clone is shallow.
func (l *Log) WriteText(w io.Writer) error {
	var b strings.Builder
	b.WriteString(l.Title() + "\n")
	for _, c := range l.Commits {
		fmt.Fprintf(&b, "\n%.12s %s %s\n", c.Commit, c.Time, source.QuoteName(c.Subject))
		for _, t := range c.Tasks {
			b.WriteString("  " + t.line() + "\n")
		}
		if err := projection.WritePrices(&b, c.Prices, "  "); err != nil {
			return err
		}
	}
	if n := l.shallowNote(); n != "" {
		b.WriteString("\n" + n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown writes the log as markdown: the title as a heading, one table row per task a commit changed, then
// the prices of each commit that has them.
func (l *Log) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s\n\n", l.Title())
	if len(l.Commits) > 0 {
		b.WriteString("| commit | commit time | subject | task | block | scope | cached tokens invalidated |\n")
		b.WriteString("|---|---|---|---|---|---|---:|\n")
		for _, c := range l.Commits {
			for _, t := range c.Tasks {
				block, scope := "—", "—"
				if t.Block != "" {
					block = "`" + t.Block + "`"
				}
				if t.Scope != "" {
					scope = t.Scope
				}
				fmt.Fprintf(&b, "| `%.12s` | %s | %s | %s | %s | %s | %s |\n", c.Commit, c.Time,
					strings.ReplaceAll(escapeHTML(c.Subject), "|", "\\|"), t.Task, block, scope, plural.Thousands(t.InvalidatedTokens))
			}
		}
	}
	for _, c := range l.Commits {
		if len(c.Prices) > 0 {
			fmt.Fprintf(&b, "\n`%.12s`:\n", c.Commit)
			if err := projection.WritePrices(&b, c.Prices, "- "); err != nil {
				return err
			}
		}
	}
	if n := l.shallowNote(); n != "" {
		b.WriteString("\n" + n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes the log as indented JSON (version 1, documented in docs/usage.md#a-history-of-what-each-commit-invalidated).
func (l *Log) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Version int `json:"version"`
		*Log
	}{1, l})
}

// Write writes the log in format f, as promptc log --format does: WriteText, WriteMarkdown or WriteJSON.
func (l *Log) Write(w io.Writer, f report.Format) error {
	switch f {
	case report.Markdown:
		return l.WriteMarkdown(w)
	case report.JSON:
		return l.WriteJSON(w)
	}
	return l.WriteText(w)
}
