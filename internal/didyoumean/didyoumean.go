// Package didyoumean finds the word a mistyped one was meant to be: the
// "did you mean" of latgate's messages about keys, metrics, scenarios and
// commands.
package didyoumean

import "strings"

// Suggest returns the candidate closest to s by edit distance (case
// aside), when it is close enough to be a likely typo: a few edits, fewer
// than s has letters (x is no typo of o); "" otherwise.
func Suggest[S ~string](s string, candidates []S) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if d := Distance(strings.ToLower(s), strings.ToLower(string(c))); d < bestD {
			best, bestD = string(c), d
		}
	}
	if bestD <= max(1, min(3, len(s)/3)) && bestD < len([]rune(s)) {
		return best
	}
	return ""
}

// Distance is the edit distance between a and b: insertions, deletions,
// substitutions and transpositions of two neighbours ("mdoe" is one from
// "mode"), each counting one (the optimal string alignment distance); a
// large number for words over 64 characters, which are no one's typo.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		return 1 << 20
	}
	// d[i][j] is the distance between ra[:i] and rb[:j].
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
