//go:build race

package workload

// raceOn: the race detector slows a read of millions of lines ten times;
// the scale tests then read fewer (the bound of memory and the bound of
// records are asserted without it, in make test's other runs and make
// bench).
const raceOn = true
