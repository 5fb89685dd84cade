package lint

import (
	"fmt"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/source"
	"github.com/promptc/promptc/stats"
)

// shortPrefix reports each task whose stable prefix (global and task blocks, the part every session of the task
// shares) is below the minimum that providers cache, measured on the runbook of the sample: the fixture asked for,
// else the first (by name) rendering the task. The message names the fixture, and how it was chosen.
func (l *linter) shortPrefix() {
	runbooks := map[string][]*assemble.Artifact{}
	for _, a := range l.arts {
		if a.Kind == blocks.Runbook {
			runbooks[a.Task] = append(runbooks[a.Task], a)
		}
	}
	if len(runbooks) == 0 {
		return
	}
	l.ran[ShortPrefix] = true
	for _, task := range l.p.Tasks {
		a := stats.Sample(l.p, task, runbooks[task], l.sample)
		if a == nil {
			continue
		}
		sampled := fmt.Sprintf("fixture %q, the only one rendering the task", a.Fixture)
		if l.sample != "" {
			sampled = fmt.Sprintf("fixture %q, as asked", a.Fixture)
		} else if n := len(runbooks[task]); n > 1 {
			sampled = fmt.Sprintf("fixture %q, the first by name of %d rendering the task; --fixture picks another", a.Fixture, n)
		}
		end := a.PrefixEnd(blocks.ScopeTask)
		tokens := l.tok.Count(a.Text[:end])
		if tokens >= MinCacheTokens {
			continue
		}
		where := "is the whole of " + a.Path + " (" + sampled + ")"
		fix := "add the task's stable rules to the runbook, or accept that sessions of this task share no cache"
		if sp, ok := a.SpanAt(end); ok && end < len(a.Text) {
			at := source.TextPos(a.Text, end)
			where = fmt.Sprintf("ends at %d:%d of %s (%s), where session block %q starts", at.Line, at.Column, a.Path, sampled, sp.Block.ID)
			fix = fmt.Sprintf("move stable text (rules, command tables, formats) before %q, or accept that sessions of this task share no cache", sp.Block.ID)
		}
		l.add(ShortPrefix, l.p.TaskRange(task), task, fix,
			"task %q shares only %d bytes (~%d tokens, %s estimate) between sessions: its stable prefix, the global and task blocks, %s; Anthropic and OpenAI cache no prefix under %d tokens, so no new session of this task starts from the cache",
			task, end, tokens, l.tok.Encoding(), where, MinCacheTokens)
	}
}
