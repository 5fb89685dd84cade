package tokens_test

import (
	"flag"
	"fmt"

	"github.com/promptc/promptc/tokens"
)

// Count estimates the tokens of a runbook with the default vocabulary, o200k_base.
func ExampleCounter_Count() {
	c := tokens.New(tokens.O200k)
	fmt.Println(c.Count("Run only the commands listed in this runbook.\n\nNever push to main."), c.Encoding())
	// Output:
	// 15 o200k_base
}

// CountExact tokenizes a text whole; Count splits it after each blank line (here before the line of two spaces,
// which the tokenizer joins to the blank line), and so can count a token more per paragraph.
func ExampleCounter_CountExact() {
	c := tokens.New(tokens.O200k)
	text := "a\n\n  \nb"
	fmt.Println(c.CountExact(text), c.Count(text))
	// Output:
	// 3 4
}

// An Encoding is a flag.Value: a flag can hold no other encoding than the ones promptc counts with.
func ExampleEncoding_Set() {
	fs := flag.NewFlagSet("stats", flag.ContinueOnError)
	var e tokens.Encoding
	fs.Var(&e, "tokenizer", "count tokens with `ENCODING`")
	fmt.Println(fs.Parse([]string{"--tokenizer", "cl100k_base"}), e)
	_, err := tokens.ParseEncoding("gpt2")
	fmt.Println(err)
	// Output:
	// <nil> cl100k_base
	// unknown token encoding "gpt2": use o200k_base or cl100k_base
}

// CountLines counts the same text exactly, line by line: it cuts only where the tokenizer splits too (after a newline
// followed by a character other than white space and "/"), so a text that changes one line is recounted one line.
func ExampleCounter_CountLines() {
	c := tokens.New(tokens.O200k)
	text := "a\n\n  \nb"
	fmt.Println(c.CountLines(text), c.CountExact(text), tokens.LineCut('\n', 'b'), tokens.LineCut('\n', ' '))
	// Output:
	// 3 3 true false
}
