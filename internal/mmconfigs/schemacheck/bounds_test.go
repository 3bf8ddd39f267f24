package schemacheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// fanOut is a schema of n $defs, each an anyOf of the next one twice: it
// applies 2^n subschemas to the answer's value (n = 40: 8 KB, which
// jsonschema-go validates for ever).
func fanOut(n int) string {
	var b strings.Builder
	b.WriteString(`{"$ref":"#/$defs/d0","$defs":{`)
	for i := range n {
		fmt.Fprintf(&b, `"d%d":{"anyOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]},`, i, i+1, i+1)
	}
	fmt.Fprintf(&b, `"d%d":{"type":"string"}}}`, n)
	return b.String()
}

// nested is a schema of depth n: not within not within ….
func nested(n int) string {
	return strings.Repeat(`{"not":`, n) + "true" + strings.Repeat("}", n)
}

// TestBounds: a schema whose validation would recurse without end (a $ref
// that comes back to itself in place) or explode (fan-out), or that nests
// too deep, is refused when compiled, with one line naming where and the
// limit; the recursive schemas of honest use compile.
func TestBounds(t *testing.T) {
	tests := []struct{ name, schema, err string }{
		{"self $ref, 56 bytes", `{"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
			`not a valid JSON Schema: #/$defs/a comes back to itself without going into a property or item (#/$defs/a → #/$defs/a): validating would never end`},
		{"$ref to the root", `{"$ref":"#"}`,
			`not a valid JSON Schema: # comes back to itself without going into a property or item (# → #): validating would never end`},
		{"through allOf", `{"type":"object","allOf":[{"$ref":"#"}]}`,
			`not a valid JSON Schema: # comes back to itself without going into a property or item (# → #/allOf/0 → #): validating would never end`},
		{"through two $defs", `{"$defs":{"a":{"anyOf":[{"$ref":"#/$defs/b"}]},"b":{"not":{"$ref":"#/$defs/a"}}},"$ref":"#/$defs/a"}`,
			`not a valid JSON Schema: #/$defs/a comes back to itself without going into a property or item (#/$defs/a → #/$defs/a/anyOf/0 → #/$defs/b → #/$defs/b/not → #/$defs/a): validating would never end`},
		{"by an anchor", `{"$defs":{"a":{"$anchor":"loop","allOf":[{"$ref":"#loop"}]}},"$ref":"#loop"}`,
			`not a valid JSON Schema: #/$defs/a comes back to itself without going into a property or item (#/$defs/a → #/$defs/a/allOf/0 → #/$defs/a): validating would never end`},
		{"fan-out, 8 KB", fanOut(40),
			`not a valid JSON Schema: it applies more than 1000 subschemas, the limit, to the answer's value itself: allOf, anyOf, oneOf and $ref multiply each other: make it simpler`},
		{"fan-out into properties", `{"allOf":[{"properties":{"a":{"$ref":"#"}}},{"properties":{"a":{"$ref":"#"}}}]}`,
			`not a valid JSON Schema: it applies more than 1000 subschemas, the limit, to one value 8 levels inside the answer: allOf, anyOf, oneOf and $ref multiply each other: make it simpler`},
		{"too deep", nested(65), `not a valid JSON Schema: it nests deeper than 64 levels, the limit of a schema mm compiles`},

		{"deep enough", nested(63), ""},
		{"a tree", `{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}}}`, ""},
		{"a small fan-out (510 subschemas)", fanOut(7), ""},
		{"linked list by anchor", `{"$defs":{"node":{"$anchor":"node","properties":{"next":{"$ref":"#node"}}}},"$ref":"#node"}`, ""},
		{"by $id", `{"$id":"https://example.com/root.json","$defs":{"c":{"$id":"c.json","type":"string"}},"properties":{"a":{"$ref":"c.json"},"b":{"$ref":"https://example.com/c.json"}}}`, ""},
		{"draft 7 anchor", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"c":{"$id":"#city","type":"string"}},"properties":{"a":{"$ref":"#city"}}}`, ""},
		{"escaped pointer", `{"$defs":{"a/b":{"type":"string"}},"properties":{"x":{"$ref":"#/$defs/a~1b"}}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// On code without the bounds, Compile accepts the schema, and
			// validating one answer would crash or spin: it is not tried.
			v, err := Compile(json.RawMessage(tt.schema))
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("Compile: %v; want a validator", err)
			case tt.err != "" && err == nil:
				t.Fatalf("Compile accepted the schema; want %s", tt.err)
			case tt.err != "" && err.Error() != tt.err:
				t.Fatalf("Compile error\n got: %v\nwant: %s", err, tt.err)
			case tt.err == "":
				if err := v.Validate(map[string]any{}); err != nil && strings.Contains(err.Error(), "longer than") {
					t.Errorf("Validate: %v", err)
				}
			}
		})
	}
}

// TestValueDepth: a value nested deeper than MaxValueDepth is refused
// unread, whatever the schema.
func TestValueDepth(t *testing.T) {
	v, err := Compile(json.RawMessage(`{"$defs":{"n":{"type":"array","items":{"$ref":"#/$defs/n"}}},"$ref":"#/$defs/n"}`))
	if err != nil {
		t.Fatal(err)
	}
	deep := func(n int) any {
		var x any = []any{}
		for range n - 1 {
			x = []any{x}
		}
		return x
	}
	if err := v.Validate(deep(64)); err != nil {
		t.Errorf("64 levels: %v", err)
	}
	want := "validating root: the value nests deeper than 64 levels, the limit of what mm validates"
	if err := v.Validate(deep(65)); err == nil || err.Error() != want {
		t.Errorf("65 levels: %v, want %s", err, want)
	}
}

// TestValidateTimeout: a validation that takes longer than its timeout
// ends with one line, while it finishes on its own.
func TestValidateTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	v := validator{validate: func(any) error { <-release; return errors.New("late") }, timeout: 20 * time.Millisecond}
	want := "validating root: validating took longer than 20ms, the limit: the value is too large for this schema"
	if err := v.Validate("x"); err == nil || err.Error() != want {
		t.Errorf("Validate = %v, want %s", err, want)
	}
}
