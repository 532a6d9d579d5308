// Package arch holds the test that keeps docs/architecture.md true: every
// latgate package is in its table, and imports only the latgate packages
// its row lists.
package arch
