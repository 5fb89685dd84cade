// Package keytables reads the key tables of package blocks (manifestKeys, varKeys, …) from its source, for the tests
// that keep the documentation and the JSON Schemas in step with what the loader accepts.
package keytables
