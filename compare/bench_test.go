package compare

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkCompare is one suite of 20 scenarios at n requests per side,
// 2000 permutations (the default).
func BenchmarkCompare(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			var runs []Pair
			for i := range 20 {
				runs = append(runs, Pair{Endpoint: "e", Scenario: fmt.Sprint(i), Base: realistic().sample(n, rng), Current: realistic().sample(n, rng)})
			}
			c := cfg()
			c.Permutations, c.Bootstrap = 2000, 1000
			b.ResetTimer()
			for range b.N {
				Compare(runs, c)
			}
		})
	}
}
