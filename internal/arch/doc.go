// Package arch holds the tests that keep docs/architecture.md true: every
// latgate package is in its table and imports only the latgate packages
// its row lists; every API is named only in its own files
// (probe/api_NAME.go, sim/api_NAME.go) and has its docs; probe and sim
// take every time and timer from internal/clock. They read the Go files
// themselves (go/ast), not their text.
package arch
