// Package chat is the OpenAI Chat Completions wire format (and the Responses API's requests), which OpenAI,
// DashScope and DeepSeek share: provider/openai, provider/dashscope and provider/deepseek are this with their own
// cache fields (prompt_cache_key and its retention and breakpoints for OpenAI, cache_control for DashScope).
package chat
