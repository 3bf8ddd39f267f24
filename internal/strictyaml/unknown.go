package strictyaml

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// maxSuggestDistance is how many edits away a known key may be and still
// be suggested: two covers a dropped, doubled or swapped letter ("tool",
// "modle"); more suggests keys the person did not mean.
const maxSuggestDistance = 2

// UnknownKey is the error for the map key key, which is none of known, at
// the key's line: `unknown key "tool" (did you mean "tools"?)`, or, when no
// known key is near, `unknown key "foo" (known: model, tools)`.
func UnknownKey(key *yaml.Node, known []string) error {
	if near := Nearest(key.Value, known); near != "" {
		return Errorf(key, "unknown key %q (did you mean %q?)", key.Value, near)
	}
	return Errorf(key, "unknown key %q (known: %s)", key.Value, strings.Join(known, ", "))
}

// Nearest returns the entry of known closest to word by edit distance,
// letter case aside, if it is at most maxSuggestDistance edits away and
// fewer than word's length (so that "x" suggests nothing); else "". The
// first of equally near entries wins.
func Nearest(word string, known []string) string {
	best, bestD := "", maxSuggestDistance+1
	lw := strings.ToLower(word)
	for _, k := range known {
		if d := distance(lw, strings.ToLower(k)); d < bestD && d < len([]rune(word)) {
			best, bestD = k, d
		}
	}
	return best
}

// distance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of two neighbouring
// letters, in runes.
func distance(a, b string) int {
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
