package guard

import (
	"fmt"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
)

// shortPrefix reports each task whose stable prefix (global and task blocks, the part every session of the task
// shares) is below the minimum that providers cache, measured on the runbook of the first fixture rendering it.
func (l *linter) shortPrefix() {
	first := map[string]*assemble.Artifact{}
	for _, a := range l.arts {
		if a.Kind == blocks.Runbook && first[a.Task] == nil {
			first[a.Task] = a
		}
	}
	if len(first) == 0 {
		return
	}
	l.ran[LintShortPrefix] = true
	for _, task := range l.p.Tasks {
		a := first[task]
		if a == nil {
			continue
		}
		end := a.PrefixEnd(blocks.ScopeTask)
		tokens := l.tok.Count(a.Text[:end])
		if tokens >= MinCacheTokens {
			continue
		}
		where := "is the whole of " + a.Path
		fix := "add the task's stable rules to the runbook, or accept that sessions of this task share no cache"
		if sp, ok := a.SpanAt(end); ok && end < len(a.Text) {
			at := blocks.TextPos(a.Text, end)
			where = fmt.Sprintf("ends at %d:%d of %s, where session block %q starts", at.Line, at.Column, a.Path, sp.Block.ID)
			fix = fmt.Sprintf("move stable text (rules, command tables, formats) before %q, or accept that sessions of this task share no cache", sp.Block.ID)
		}
		l.add(LintShortPrefix, l.p.TaskRange(task), task, fix,
			"task %q shares only %d bytes (~%d tokens, %s estimate) between sessions: its stable prefix, the global and task blocks, %s; Anthropic and OpenAI cache no prefix under %d tokens, so no new session of this task starts from the cache",
			task, end, tokens, l.tok.Encoding(), where, MinCacheTokens)
	}
}
