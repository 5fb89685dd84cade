// Package sdktest holds the round-trip tests of package projection against the providers' official Go SDKs
// (anthropic-sdk-go, openai-go, aws-sdk-go-v2's bedrockruntime, google.golang.org/genai): each body promptc projects
// is decoded into the SDK's request type, sent by the SDK's client to a local server, and what arrives must be the
// body promptc built (sdk_test.go, sdk_providers_test.go).
//
// It is a module of its own, using promptc from the directory above (the replace in go.mod), so that the SDKs and
// their dependencies are required here and not by github.com/promptc/promptc: `make test` on a fresh machine fetches
// none of them, and a program that imports promptc does not list them. `make sdk` runs these tests (cd sdktest && go
// test ./...); `make integration` and `make check` run `make sdk`.
package sdktest
