//go:build !race

package workload

const raceOn = false
