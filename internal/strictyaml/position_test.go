package strictyaml

import (
	"errors"
	"fmt"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestLocated: the position goes in front of the whole message, however
// many prefixes wrap it; the innermost position wins; an error without one
// names the file alone.
func TestLocated(t *testing.T) {
	key := &yaml.Node{Kind: yaml.ScalarNode, Value: "matcherr", Line: 8}
	entry := &yaml.Node{Kind: yaml.MappingNode, Line: 6}
	unknown := UnknownKey(key, []string{"command", "matcher"})
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"unknown key", unknown, `agent.yaml:8: unknown key "matcherr" (did you mean "matcher"?)`},
		{"wrapped", fmt.Errorf("hooks.preGeneration[0]: %w", unknown),
			`agent.yaml:8: hooks.preGeneration[0]: unknown key "matcherr" (did you mean "matcher"?)`},
		{"innermost wins", At(entry, fmt.Errorf("hooks.preGeneration[0]: %w", unknown)),
			`agent.yaml:8: hooks.preGeneration[0]: unknown key "matcherr" (did you mean "matcher"?)`},
		{"outer line when none inside", At(entry, errors.New("timeout must be >= 0")), "agent.yaml:6: timeout must be >= 0"},
		{"no line", errors.New("cannot read: no such file"), "agent.yaml: cannot read: no such file"},
		{"a node without a line", At(&yaml.Node{}, errors.New("x")), "agent.yaml: x"},
		{"syntax", &PosError{Line: 6, Column: 4, Err: errors.New("value is not allowed in this context")},
			"agent.yaml:6:4: value is not allowed in this context"},
		{"a file of its own", fmt.Errorf("model: %w", &FileError{Path: "s.yaml", Err: Errorf(key, "rule 1: say: empty")}),
			"agent.yaml: model: s.yaml:8: rule 1: say: empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Located("agent.yaml", tt.err); got != tt.want {
				t.Errorf("Located\n got: %s\nwant: %s", got, tt.want)
			}
		})
	}
	if At(key, nil) != nil {
		t.Error("At(n, nil) is not nil")
	}
}

// TestDecodeError: yaml.v3's decoding error becomes its first problem, at
// its line, without yaml.v3's prefix.
func TestDecodeError(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("a: 1\nb: [x]\n"), &doc); err != nil {
		t.Fatal(err)
	}
	var v struct {
		B string `yaml:"b"`
	}
	err := doc.Decode(&v)
	if err == nil {
		t.Fatal("no decoding error")
	}
	want := "agent.yaml:2: cannot unmarshal !!seq into string"
	if got := Located("agent.yaml", DecodeError(err)); got != want {
		t.Errorf("DecodeError\n got: %s\nwant: %s", got, want)
	}
}

// TestAtLine: yaml.v3's own position, kept when the second parser cannot
// say where, goes where every other position goes.
func TestAtLine(t *testing.T) {
	for in, want := range map[string]string{
		"line 3: did not find expected key": "f.yaml:3: did not find expected key",
		"line x: odd":                       "f.yaml: line x: odd",
		"found a tab":                       "f.yaml: found a tab",
		"line 0: zero":                      "f.yaml: line 0: zero",
	} {
		if got := Located("f.yaml", atLine(in)); got != want {
			t.Errorf("atLine(%q)\n got: %s\nwant: %s", in, got, want)
		}
	}
}

// TestExcerpt: a syntax error's excerpt is found however many prefixes wrap
// it, and not inside a file of its own, whose error names that file.
func TestExcerpt(t *testing.T) {
	_, syntax := Parse([]byte("a:\n\tb: 1\n"))
	want := "  2 | →b: 1\n    | ^\n  hint: indent with spaces: YAML does not allow a tab in the indentation (→ is a tab)"
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"syntax", syntax, want},
		{"wrapped", fmt.Errorf("front matter: %w", syntax), want},
		{"in a file of its own", &FileError{Path: "s.yaml", Err: syntax}, ""},
		{"not a syntax error", Errorf(&yaml.Node{Line: 3}, "x"), ""},
		{"no position", errors.New("x"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Excerpt(tt.err); got != tt.want {
				t.Errorf("Excerpt\n got: %q\nwant: %q", got, tt.want)
			}
		})
	}
}
