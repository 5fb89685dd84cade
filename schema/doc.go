// Package schema holds the JSON Schemas (draft 2020-12) of promptc's source files: promptc.toml, the files under
// blocks/ and the fixtures, for editors and TOML language servers (Taplo, Tombi) to validate and explain them.
package schema
