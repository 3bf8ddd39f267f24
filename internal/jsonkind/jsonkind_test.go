package jsonkind

import "testing"

func TestOf(t *testing.T) {
	for raw, want := range map[string]string{
		`{"a":1}`: "an object", ` [1]`: "an array", `"s"`: "a string", `true`: "a boolean",
		`false`: "a boolean", `null`: "null", `-1.5`: "a number", `  `: "nothing",
	} {
		if got := Article(Of([]byte(raw))); got != want {
			t.Errorf("Article(Of(%q)) = %q, want %q", raw, got, want)
		}
	}
}
