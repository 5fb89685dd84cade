package projection_test

import (
	"flag"
	"fmt"
	"log"
	"strings"
	"testing/fstest"
	"time"

	"github.com/promptc/promptc/assemble"
	"github.com/promptc/promptc/blocks"
	"github.com/promptc/promptc/projection"
)

// A platform's daemon builds the request for a live session: the runbook of the session, the history it keeps,
// and this turn's message, with the cache rules of the model it calls.
func ExampleNew() {
	prog, diags := assemble.Load(fstest.MapFS{
		"promptc.toml": {Data: []byte(`
name  = "tracker"
tasks = ["chat"]

[runbook]
order = ["rules", "identity"]

[vars.agent_name]
scope    = "session"
type     = "string"
required = true
`)},
		"blocks/core.toml": {Data: []byte(`
[[block]]
id   = "rules"
body = "Run only the commands listed here."

[[block]]
id   = "identity"
body = "You are {{.agent_name}}."
`)},
	})
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	rb, err := prog.Runbook("chat", blocks.Values{"agent_name": "Ada"})
	if err != nil {
		log.Fatal(err)
	}
	cat, err := projection.NewCatalog(prog.Project.Models)
	if err != nil {
		log.Fatal(err)
	}
	model, err := cat.Model(projection.Anthropic, "claude-sonnet-4-5")
	if err != nil {
		log.Fatal(err)
	}
	pr, err := projection.New(projection.Input{
		Runbook: rb,
		History: []projection.Message{{Role: projection.User, Content: "Hello."}, {Role: projection.Assistant, Content: "Hi."}},
		Turn:    "What can you run?",
	}, projection.Options{Model: model})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(pr.Body))
	// This runbook is far below the model's 1,024-token minimum, so no part of it carries a cache marker.
	fmt.Println(len(pr.Markers()), "markers")
	// Output:
	// {
	//   "model": "claude-sonnet-4-5",
	//   "max_tokens": 4096,
	//   "system": [
	//     {
	//       "type": "text",
	//       "text": "Run only the commands listed here.\n\nYou are Ada.\n"
	//     }
	//   ],
	//   "messages": [
	//     {
	//       "role": "user",
	//       "content": "Hello."
	//     },
	//     {
	//       "role": "assistant",
	//       "content": "Hi."
	//     },
	//     {
	//       "role": "user",
	//       "content": "What can you run?"
	//     }
	//   ]
	// }
	// 0 markers
}

// Simulate compares the cost of a session laid out by promptc with two naive layouts.
func ExampleSimulate() {
	rb := &assemble.Artifact{Text: strings.Repeat("A rule every task shares. ", 300) + "\n"}
	cat, _ := projection.NewCatalog(nil)
	model, _ := cat.Model(projection.Anthropic, "claude-sonnet-4-5")
	sim, err := projection.Simulate([]projection.Replay{{
		Name:    "demo",
		Runbook: rb,
		Turns:   []string{"Fix NW-1.", "Now NW-2.", "And NW-3."},
	}}, projection.Options{Model: model})
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range sim.Layouts {
		fmt.Printf("%-15s hit rate %3.0f%%, cost %.2f\n", l.Name, l.Total.HitRate*100, l.Total.RelativeCost)
	}
	// Turn 1 writes the runbook to the cache and turns 2 and 3 read it back, with the history, in promptc's layout.
	// The naive layouts place automatic caching's one marker at the end of a request that starts (volatile-first)
	// or ends (rewrite) with text that changes every turn: nothing they write is found again.

	// Output:
	// promptc         hit rate  66%, cost 0.49
	// volatile-first  hit rate   0%, cost 1.25
	// rewrite         hit rate   0%, cost 1.25
}

// The sessions promptc simulate replays by default: every fixture of the task with turns, by name.
func ExampleReplayFixtures() {
	prog, diags := assemble.LoadDir("../examples/tracker")
	if len(diags) > 0 {
		log.Fatal(diags)
	}
	for _, f := range projection.ReplayFixtures(prog.Project, "chat") {
		fmt.Println(f.Name, len(f.Turns))
	}
	// Output:
	// basic 2
	// conversation 5
	// untrusted-name 1
}

// How long cache entries live changes what a session costs. With turns ten minutes apart, Anthropic's 5-minute
// entries are gone before each next turn; the 1-hour lifetime (on the runbook's markers) keeps the runbook cached,
// and Simulate names it the cheaper.
func ExampleSimulate_lifetimes() {
	rb := &assemble.Artifact{Text: strings.Repeat("A rule every task shares. ", 300) + "\n"}
	cat, _ := projection.NewCatalog(nil)
	model, _ := cat.Model(projection.Anthropic, "claude-sonnet-4-5")
	sim, err := projection.Simulate([]projection.Replay{{
		Name:    "demo",
		Runbook: rb,
		Turns:   []string{"Fix NW-1.", "Now NW-2.", "And NW-3."},
	}}, projection.Options{Model: model, Gap: 10 * time.Minute})
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range sim.Lifetimes {
		fmt.Printf("%s: %d tokens expired, cost %.2f\n", l.TTL, l.Total.ExpiredTokens, l.Total.RelativeCost)
	}
	fmt.Println("cheapest:", sim.Cheapest)
	// Under 5m, turns 2 and 3 write again what the turn before had cached (the runbook, then the runbook and the
	// history). Under 1h, only the history's entry (its marker keeps 5m) expires: turn 1's message and reply.

	// Output:
	// 5m: 3615 tokens expired, cost 1.25
	// 1h: 13 tokens expired, cost 0.74
	// cheapest: 1h
}

// Providers, cache modes and lifetimes are closed sets that parse as flags do; a mode or a lifetime the model does
// not offer is refused with what it offers.
func ExampleOptions_Check() {
	var p projection.Provider
	var mode projection.CacheMode
	var ttl projection.TTL
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.Var(&p, "provider", "")
	fs.Var(&mode, "cache", "")
	fs.Var(&ttl, "ttl", "")
	if err := fs.Parse([]string{"-provider", "openai", "-cache", "implicit", "-ttl", "24h"}); err != nil {
		log.Fatal(err)
	}
	cat, _ := projection.NewCatalog(nil)
	model, _ := cat.Model(p, "")
	fmt.Println(projection.Options{Model: model, Cache: mode, TTL: ttl}.Check())
	fmt.Println(projection.Options{Model: model, TTL: ttl}.Check())
	fmt.Println(ttl.Duration())
	// Output:
	// openai gpt-5 has no implicit cache: it offers automatic
	// <nil>
	// 24h0m0s
}

// A simulation writes its own report, as promptc simulate prints it (WriteJSON for --format json).
func ExampleSimulation_WriteText() {
	rb := &assemble.Artifact{Text: strings.Repeat("A rule every task shares. ", 300) + "\n"}
	cat, _ := projection.NewCatalog(nil)
	model, _ := cat.Model(projection.OpenAI, "")
	sim, err := projection.Simulate([]projection.Replay{{Name: "demo", Runbook: rb, Turns: []string{"Fix NW-1.", "Now NW-2."}}},
		projection.Options{Model: model})
	if err != nil {
		log.Fatal(err)
	}
	var b strings.Builder
	if err := sim.WriteText(&b); err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.SplitN(b.String(), "\n", 2)[0])
	fmt.Println(strings.Contains(b.String(), "cheapest: "))
	// Output:
	// openai gpt-5, automatic cache, entries live in_memory: minimum 1,024 tokens, reads cost 0.1x and writes 1x the input price
	// true
}
