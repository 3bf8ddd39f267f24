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
