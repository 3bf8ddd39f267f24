package acpconn

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
)

// FuzzReader: whatever a peer writes, each line of it goes either to the
// SDK, as it was written and in its order, or to Notify, once; never a
// panic. The id found at the start of a message is a JSON value, not null.
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"a\":1}}\n",
		"not json\n\n{\"jsonrpc\":\"2.0\",\"method\":\"last\",\"params\":[]}",
		"{\"id\":null,\"method\":\"session/cancel\"}\n{\"method\":\"$/cancel_request\",\"params\":{\"requestId\":1}}\n",
		"{\"id\":{\"a\":[1,2]},\"method\":\"x\",\"params\":\"p\"}\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		if id, ok := requestID(input); ok && (!json.Valid(id) || string(id) == "null") {
			t.Fatalf("id %q found in %q", id, input)
		}
		var out bytes.Buffer
		notes := 0
		r := NewReader(bytes.NewReader(input), NewWriter(&out), func(method string, params json.RawMessage) {
			notes++
			if method == "" || len(params) > 0 && !json.Valid(params) {
				t.Fatalf("notified %q with params %q", method, params)
			}
		}, func(err error) { t.Fatalf("refused %v", err) })
		sdk, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		if out.Len() > 0 {
			t.Fatalf("answered %q", out.String())
		}
		lines, passed := splitLines(input), splitLines(sdk)
		if len(passed)+notes != len(lines) {
			t.Fatalf("%d lines: %d to the SDK, %d notified", len(lines), len(passed), notes)
		}
		i := 0
		for _, l := range lines { // passed is a subsequence of lines
			if i < len(passed) && bytes.Equal(l, passed[i]) {
				i++
			}
		}
		if i != len(passed) {
			t.Fatalf("the SDK read %q, not lines of %q in their order", sdk, input)
		}
	})
}

// splitLines is b's lines, each with its newline (the last one may have
// none).
func splitLines(b []byte) [][]byte {
	var lines [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n') + 1
		if i == 0 {
			i = len(b)
		}
		lines = append(lines, b[:i])
		b = b[i:]
	}
	return lines
}
