package openai

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// piecesStream is a stream of one tool call whose arguments come one
// character a chunk, n of them, as a server may send them.
func piecesStream(n int) (body []byte, args string) {
	var b bytes.Buffer
	b.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"bash","arguments":"{\"command\":\""}}]}}]}` + "\n\n")
	for range n {
		b.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"x"}}]}}]}` + "\n\n")
	}
	b.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n")
	return b.Bytes(), `{"command":"` + strings.Repeat("x", n) + `"}`
}

// maxAllocPerPiece bounds what reading one chunk of a call's arguments may
// allocate: its line's JSON decoded (about 1 KB measured) and its share of
// the arguments' builder. Joined with +=, 20,000 pieces allocated 200 MB,
// 10 KB a piece, and the cost grows with their number.
const maxAllocPerPiece = 4 << 10

// TestArgumentPiecesAreLinear: arguments streamed one character a chunk
// are joined whole, in work (bytes allocated, not time) linear in the
// number of pieces.
func TestArgumentPiecesAreLinear(t *testing.T) {
	for _, n := range []int{1000, 20000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			body, want := piecesStream(n)
			acc := &accumulator{provider: "llamacpp", ids: new(atomic.Int64)}
			var err error
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err = acc.readStream(bytes.NewReader(body), nil)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			r := acc.reply()
			if len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "bash" || r.ToolCalls[0].Arguments != want {
				t.Fatalf("calls %d, first %q with %d bytes of arguments, want bash with %d", len(r.ToolCalls), r.ToolCalls[0].Name, len(r.ToolCalls[0].Arguments), len(want))
			}
			if alloc, limit := after.TotalAlloc-before.TotalAlloc, uint64(maxAllocPerPiece*n); alloc > limit {
				t.Errorf("%d bytes allocated for %d pieces, more than %d", alloc, n, limit)
			}
		})
	}
}

// BenchmarkArgumentPieces reads a call whose arguments come one character
// a chunk (go test -bench ArgumentPieces -benchmem).
func BenchmarkArgumentPieces(b *testing.B) {
	for _, n := range []int{20000, 200000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			body, _ := piecesStream(n)
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				acc := &accumulator{provider: "llamacpp", ids: new(atomic.Int64)}
				if err := acc.readStream(bytes.NewReader(body), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
