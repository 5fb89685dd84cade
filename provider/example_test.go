package provider_test

import (
	"flag"
	"fmt"

	"github.com/promptc/promptc/provider"
)

// A Provider is a flag.Value: a misspelt name is refused with the closest one.
func ExampleProvider_Set() {
	fs := flag.NewFlagSet("project", flag.ContinueOnError)
	var p provider.Provider
	fs.Var(&p, "provider", "the API")
	fmt.Println(p.Set("bedrok"))
	if err := fs.Parse([]string{"--provider", "gemini"}); err != nil {
		fmt.Println(err)
	}
	fmt.Println(p, provider.Names())
	// Output:
	// unknown provider "bedrok" (did you mean "bedrock"?): use anthropic, openai, dashscope, bedrock, gemini or deepseek
	// gemini [anthropic openai dashscope bedrock gemini deepseek]
}

// The model table: a provider's default model, and its cache minimum.
func ExampleCatalog_Model() {
	m, err := provider.NewCatalog(nil).Model(provider.Anthropic, "claude-sonnet-4-5")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Provider, m.Name, m.MinCacheTokens, m.Mode(provider.CacheDefault))
	// Output: anthropic claude-sonnet-4-5 1024 explicit
}
