package strictyaml

import (
	"testing"

	"gopkg.in/yaml.v3"
)

func TestUnknownKey(t *testing.T) {
	known := []string{"model", "tools", "mcpServers", "maxSteps", "maxAskDepth"}
	tests := []struct {
		key  string
		want string
	}{
		{"tool", `line 3: unknown key "tool" (did you mean "tools"?)`},
		{"modle", `line 3: unknown key "modle" (did you mean "model"?)`},
		{"mcpservers", `line 3: unknown key "mcpservers" (did you mean "mcpServers"?)`},
		{"maxstep", `line 3: unknown key "maxstep" (did you mean "maxSteps"?)`},
		{"colour", `line 3: unknown key "colour" (known: model, tools, mcpServers, maxSteps, maxAskDepth)`},
		{"x", `line 3: unknown key "x" (known: model, tools, mcpServers, maxSteps, maxAskDepth)`},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			err := UnknownKey(&yaml.Node{Kind: yaml.ScalarNode, Value: tt.key, Line: 3}, known)
			if err.Error() != tt.want {
				t.Errorf("UnknownKey(%q)\n got: %v\nwant: %s", tt.key, err, tt.want)
			}
		})
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "ab", 2}, {"tool", "tools", 1},
		{"modle", "model", 1}, {"kitten", "sitting", 3}, {"é", "e", 1},
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
