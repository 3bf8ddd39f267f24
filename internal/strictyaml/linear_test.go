package strictyaml

import (
	"runtime"
	"strings"
	"testing"
)

// maxAllocPerByte bounds what Parse may allocate per byte of its input,
// for the tests: about 550 bytes are measured on 40 KB of "[" (goccy's
// tokens and yaml.v3's nodes), where the second parse that locates the
// error allocated 60,000 (2.4 GB).
const maxAllocPerByte = 1024

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// deepInputs are 40 KB files whose paths grow with the square of their
// size: nesting 10,000 deep, or a long key over many items. Each is
// refused (or, the last, accepted) in work linear in its size.
var deepInputs = []struct{ name, in, want string }{
	{"flow lists past yaml.v3's depth", "a: " + strings.Repeat("[", 40000), "f.yaml: exceeded max depth of 10000"},
	{"flow lists under it", "a: " + strings.Repeat("[", 9000) + strings.Repeat(" ", 31000), "f.yaml:1: did not find expected node content"},
	{"flow maps", "a: " + strings.Repeat("{a: ", 10000), "f.yaml:1: did not find expected node content"},
	{"block lists on one line", strings.Repeat("- ", 20000) + "\tx", "f.yaml: exceeded max depth of 10000"},
	{"a long key over many items", strings.Repeat("k", 20000) + ": [" + strings.Repeat("1,", 10000), "f.yaml: mapping values are not allowed in this context"},
	{"closed flow lists, 9,999 deep", "a: " + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + strings.Repeat(" ", 20000), ""},
}

// TestParseIsLinear: a file of deep flow collections is refused with its
// error, and Parse's work (bytes allocated, not time) stays within a
// constant per byte of it: the error's position is looked for only when
// that is cheap, and a node's path is written out only for an error.
func TestParseIsLinear(t *testing.T) {
	for _, tc := range deepInputs {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			alloc := allocated(func() { _, err = Parse([]byte(tc.in)) })
			got := ""
			if err != nil {
				got = Located("f.yaml", err)
			}
			if got != tc.want {
				t.Errorf("error %q, want %q", got, tc.want)
			}
			if limit := uint64(maxAllocPerByte * len(tc.in)); alloc > limit {
				t.Errorf("%d bytes allocated for %d bytes of input, more than %d", alloc, len(tc.in), limit)
			}
		})
	}
}

// BenchmarkParseDeep is Parse on deepInputs (go test -bench ParseDeep
// -benchmem): before the bound, 40 KB of "[" took 2.4 GB and 25 s.
func BenchmarkParseDeep(b *testing.B) {
	for _, tc := range deepInputs {
		b.Run(tc.name, func(b *testing.B) {
			data := []byte(tc.in)
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				Parse(data)
			}
		})
	}
}
