// Package assemble is the promptc compiler: it checks a loaded project's bodies, constants, references and scopes,
// then assembles runbooks and per-turn messages with a source map of which block produced which bytes, and writes
// artifact trees (BuildDir is promptc build).
package assemble
