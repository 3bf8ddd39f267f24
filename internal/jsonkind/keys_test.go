package jsonkind

import (
	"strconv"
	"strings"
	"testing"
)

func TestUniqueKeys(t *testing.T) {
	tests := []struct {
		json, err string
	}{
		{`{"action":"deny","reason":"r"}`, ""},
		{`{}`, ""},
		{`[]`, ""},
		{`"action"`, ""},
		{`{"a":{"a":1},"b":{"a":2}}`, ""},
		{`[{"a":1},{"a":2}]`, ""},
		{`{"a":["a","a"],"b":[{"a":1,"b":2}]}`, ""},
		{`{"action":"deny","action":"allow"}`, `key "action" is given twice`},
		{`{"a":1,"\u0061":2}`, `key "a" is given twice`},
		{`{"input":{"path":"notes.txt","path":"/home/me/.ssh/authorized_keys"}}`, `input: key "path" is given twice`},
		{`{"input":{"opts":{"x":1,"y":{},"x":2}}}`, `input.opts: key "x" is given twice`},
		{`{"input":{"items":[1,{"k":1},{"k":1,"k":2}]}}`, `input.items[2]: key "k" is given twice`},
		{`[[0],{"z":[],"z":{}}]`, `[1]: key "z" is given twice`},
		{`{"a":{"b":1},"c":2,"a":3}`, `key "a" is given twice`},
	}
	for _, tc := range tests {
		err := UniqueKeys([]byte(tc.json))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("UniqueKeys(%s) = %q, want %q", tc.json, got, tc.err)
		}
	}
}

// TestUniqueKeysLinear: an object of 100,000 keys and an object nested
// 10,000 deep are one pass each (a quadratic walk would take minutes).
func TestUniqueKeysLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 100_000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":0`)
	}
	b.WriteString(`,"k0":1}`)
	if err := UniqueKeys([]byte(b.String())); err == nil || err.Error() != `key "k0" is given twice` {
		t.Errorf("100,000 keys, the first again at the end: %v", err)
	}
	deep := strings.Repeat(`{"a":`, 10_000) + "1" + strings.Repeat("}", 10_000)
	if err := UniqueKeys([]byte(deep)); err != nil {
		t.Errorf("10,000 levels: %v", err)
	}
}
