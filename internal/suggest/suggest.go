// Package suggest finds, among known names, the one a person probably
// meant: the "did you mean" of every error that names something unknown
// (a configuration key, an agent, a provider, a hook event, a skill, a
// session, a model).
package suggest

import (
	"cmp"
	"slices"
	"strings"
)

// maxDistance is how many edits away a known name may be and still be
// suggested: two covers a dropped, doubled or swapped letter ("tool",
// "modle"); more suggests names the person did not mean.
const maxDistance = 2

// Nearest returns the entry of known closest to word by edit distance,
// letter case aside, if it is at most two edits away and fewer than word's
// length (so that "x" suggests nothing); else "". The first of equally
// near entries wins.
func Nearest(word string, known []string) string {
	best, bestD := "", maxDistance+1
	lw := strings.ToLower(word)
	for _, k := range known {
		if d := Distance(lw, strings.ToLower(k)); d < bestD && d < len([]rune(word)) {
			best, bestD = k, d
		}
	}
	return best
}

// DidYouMean is " (did you mean \"near\"?)" for the entry of known nearest
// to word, or "" when none is near: the end of an error's line.
func DidYouMean(word string, known []string) string {
	if near := Nearest(word, known); near != "" && near != word {
		return ` (did you mean "` + near + `"?)`
	}
	return ""
}

// ByCloseness returns known sorted by their distance to word, closest
// first (ties in known's order): a list where the likeliest comes first.
func ByCloseness(word string, known []string) []string {
	lw := strings.ToLower(word)
	out := slices.Clone(known)
	d := make(map[string]int, len(out))
	for _, k := range out {
		lk := strings.ToLower(k)
		d[k] = Distance(lw, lk)
		if strings.HasPrefix(lk, lw) || strings.HasPrefix(lw, lk) {
			d[k] = min(d[k], 1) // "qwen3" for "qwen3:8b"
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(d[a], d[b]) })
	return out
}

// Distance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of two neighbouring
// letters, in runes.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows of the table: the one before last, the last, this one.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
