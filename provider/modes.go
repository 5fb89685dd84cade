package provider

import (
	"time"

	"github.com/promptc/promptc/internal/enum"
)

// CacheMode is how a request uses the provider's prompt cache. The zero value is the model's default mode (the
// first of Model.Modes).
type CacheMode uint8

const (
	// CacheDefault is the model's default mode.
	CacheDefault CacheMode = iota
	// CacheExplicit places cache markers (cache_control, cachePoint, prompt_cache_breakpoint) where promptc's rules
	// let them pay; for Gemini, an explicit cachedContents resource.
	CacheExplicit
	// CacheAutomatic lets the provider find the prefix: OpenAI's and DeepSeek's prefix caching, Anthropic's and
	// Qwen4's one top-level cache_control, Bedrock Claude's single cachePoint.
	CacheAutomatic
	// CacheImplicit is a cache without markers that the provider keeps on its own and does not guarantee
	// (DashScope's implicit cache, Gemini's implicit caching).
	CacheImplicit
)

var cacheModeNames = []string{"", "explicit", "automatic", "implicit"}

var cacheModes = enum.New[CacheMode]("CacheMode", "cache mode", cacheModeNames...).Default("default").Hint(": use " + enum.OrList(cacheModeNames[1:]))

func (c CacheMode) String() string { return cacheModes.String(c) }

// ParseCacheMode returns the mode named s: explicit, automatic or implicit.
func ParseCacheMode(s string) (CacheMode, error) { return cacheModes.Parse(s) }

// Set parses s into c (flag.Value).
func (c *CacheMode) Set(s string) error { return cacheModes.Set(c, s) }

// MarshalText returns c's name.
func (c CacheMode) MarshalText() ([]byte, error) { return cacheModes.Marshal(c) }

// UnmarshalText parses a cache mode's name.
func (c *CacheMode) UnmarshalText(b []byte) error { return c.Set(string(b)) }

// TTL is how long a cache entry lives from its last use, as a provider names its choices. The zero value is the
// model's default (the first of Model.TTLs).
type TTL uint8

const (
	// TTLDefault is the model's default lifetime.
	TTLDefault TTL = iota
	// TTL5m is five minutes (Anthropic's, Bedrock's and DashScope's default; Gemini explicit's shortest here).
	TTL5m
	// TTL30m is OpenAI's explicit breakpoints' lifetime (prompt_cache_options.ttl).
	TTL30m
	// TTL1h is one hour (Anthropic's and Bedrock's "1h", Qwen4's, Gemini explicit's default).
	TTL1h
	// TTLInMemory is OpenAI's default retention: entries are cleared after 5 to 10 minutes of inactivity; promptc
	// counts 5.
	TTLInMemory
	// TTL24h is OpenAI's extended retention (prompt_cache_retention "24h"), and a day of Gemini explicit storage.
	TTL24h
)

var ttlNames = []string{"", "5m", "30m", "1h", "in_memory", "24h"}

var ttlDurations = []time.Duration{0, 5 * time.Minute, 30 * time.Minute, time.Hour, 5 * time.Minute, 24 * time.Hour}

var ttls = enum.New[TTL]("TTL", "cache lifetime", ttlNames...).Default("default").Hint(": use " + enum.OrList(ttlNames[1:]))

func (t TTL) String() string { return ttls.String(t) }

// Duration is how long an entry lives without use.
func (t TTL) Duration() time.Duration {
	if int(t) < len(ttlDurations) {
		return ttlDurations[t]
	}
	return 0
}

// ParseTTL returns the lifetime named s: 5m, 30m, 1h, in_memory or 24h.
func ParseTTL(s string) (TTL, error) { return ttls.Parse(s) }

// Set parses s into t (flag.Value).
func (t *TTL) Set(s string) error { return ttls.Set(t, s) }

// MarshalText returns t's name.
func (t TTL) MarshalText() ([]byte, error) { return ttls.Marshal(t) }

// UnmarshalText parses a lifetime's name.
func (t *TTL) UnmarshalText(b []byte) error { return t.Set(string(b)) }
