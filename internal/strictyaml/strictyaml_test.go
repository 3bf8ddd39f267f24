package strictyaml

import (
	"testing"

	"gopkg.in/yaml.v3"
)

// laughs is the billion laughs: nine levels of nine aliases, 9^9 strings
// once expanded, in a few hundred bytes.
const laughs = `a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
`

func TestParseRefuses(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"second document", "a: 1\n---\nb: 2\n", "f.yaml:2: a second YAML document (after ---): a file holds one; remove the --- line and what follows, or merge them"},
		{"empty second document", "a: 1\n---\n", "f.yaml:2: a second YAML document (after ---): a file holds one; remove the --- line and what follows, or merge them"},
		{"bad second document", "a: 1\n---\nb: [\n", "f.yaml:3:4: sequence end token ']' not found"},
		{"top key twice", "model: a\nyolo: true\nmodel: b\n", `f.yaml:3: key "model" is given twice (first on line 1)`},
		{"name twice", "mmConfigs:\n  e: a.yaml\n  e: b.yaml\n", `f.yaml:3: mmConfigs: key "e" is given twice (first on line 2)`},
		{"key twice in an entry", "mcpServers:\n  fs:\n    command: a\n    command: b\n", `f.yaml:4: mcpServers.fs: key "command" is given twice (first on line 3)`},
		{"key twice in a list item", "hooks:\n  preToolCall:\n    - command: a\n      command: b\n", `f.yaml:4: hooks.preToolCall[0]: key "command" is given twice (first on line 3)`},
		{"flow map", "p: {a: 1, b: 2, a: 3}\n", `f.yaml:1: p: key "a" is given twice (first on line 1)`},
		{"quoted and plain", "a: 1\n\"a\": 2\n", `f.yaml:2: key "a" is given twice (first on line 1)`},
		{"alias", "a: &x [1]\nb: *x\n", "f.yaml:2: b: alias *x: mm's files take no YAML aliases; write the value out"},
		{"merge key", "a: &x {k: 1}\nb:\n  <<: *x\n", "f.yaml:3: b.<<: alias *x: mm's files take no YAML aliases; write the value out"},
		{"alias as a key", "a: &x k\nb: {*x : 1}\n", "f.yaml:2: b: alias *x: mm's files take no YAML aliases; write the value out"},
		{"alias in a list", "l: [&x 1, *x]\n", "f.yaml:1: l[1]: alias *x: mm's files take no YAML aliases; write the value out"},
		{"billion laughs", laughs, "f.yaml:2: b[0]: alias *a: mm's files take no YAML aliases; write the value out"},
		{"syntax", "a: [\n", "f.yaml:1:4: sequence end token ']' not found"},
		// yaml.v3 alone names the line where the enclosing block starts
		// (line 2, 2, 1 and 1 here): the error names the problem's own.
		{"deep in a block", "model: x\nhooks:\n  preToolCall:\n    - command: a\n      matcher: b\n   bad: b\n", "f.yaml:6:4: value is not allowed in this context"},
		{"unclosed list", "steps:\n  - say: hi\n    tool: [a, b\n  - say: x\n", "f.yaml:4:3: ',' or ']' must be specified"},
		{"list then key", "a:\n  - b\n  c: d\n", "f.yaml:3:3: value is not allowed in this context"},
		{"tab", "model: x\nhooks:\n  preToolCall:\n    - command: a\n\t  matcher: b\n", "f.yaml:5:1: found a tab character that cannot start any token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := Parse([]byte(tt.in))
			if err == nil || Located("f.yaml", err) != tt.want {
				t.Errorf("Parse error\n got: %s\nwant: %s", Located("f.yaml", err), tt.want)
			}
			if n != nil {
				t.Errorf("Parse returned a node with its error")
			}
		})
	}
}

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		name, in string
		kind     yaml.Kind // 0: no document
	}{
		{"empty", "", 0},
		{"comments only", "# nothing\n", 0},
		{"one map", "a: 1\nb: [x, {c: 2}]\n", yaml.MappingNode},
		{"leading ---", "---\na: 1\n", yaml.MappingNode},
		{"document end", "a: 1\n...\n", yaml.MappingNode},
		{"an anchor nobody uses", "a: &x 1\n", yaml.MappingNode},
		{"same key in two maps", "a: {k: 1}\nb: {k: 2}\n", yaml.MappingNode},
		{"a list", "- a\n- a\n", yaml.SequenceNode},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.kind == 0 && n != nil:
				t.Errorf("got a %v node, want none", n.Kind)
			case tt.kind != 0 && (n == nil || n.Kind != tt.kind):
				t.Errorf("got %v, want a node of kind %v", n, tt.kind)
			}
		})
	}
}
