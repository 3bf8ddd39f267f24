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
		{"tool", `f.yaml:3: unknown key "tool" (did you mean "tools"?)`},
		{"modle", `f.yaml:3: unknown key "modle" (did you mean "model"?)`},
		{"mcpservers", `f.yaml:3: unknown key "mcpservers" (did you mean "mcpServers"?)`},
		{"maxstep", `f.yaml:3: unknown key "maxstep" (did you mean "maxSteps"?)`},
		{"colour", `f.yaml:3: unknown key "colour" (known: model, tools, mcpServers, maxSteps, maxAskDepth)`},
		{"x", `f.yaml:3: unknown key "x" (known: model, tools, mcpServers, maxSteps, maxAskDepth)`},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			err := UnknownKey(&yaml.Node{Kind: yaml.ScalarNode, Value: tt.key, Line: 3}, known)
			if got := Located("f.yaml", err); got != tt.want {
				t.Errorf("UnknownKey(%q)\n got: %s\nwant: %s", tt.key, got, tt.want)
			}
		})
	}
}
