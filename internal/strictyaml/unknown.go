package strictyaml

import (
	"strings"

	"github.com/mm-agent/mm/internal/suggest"

	"gopkg.in/yaml.v3"
)

// UnknownKey is the error for the map key key, which is none of known, at
// the key's line: `unknown key "tool" (did you mean "tools"?)`, or, when no
// known key is near, `unknown key "foo" (known: model, tools)`.
func UnknownKey(key *yaml.Node, known []string) error {
	if near := suggest.Nearest(key.Value, known); near != "" {
		return Errorf(key, "unknown key %q (did you mean %q?)", key.Value, near)
	}
	return Errorf(key, "unknown key %q (known: %s)", key.Value, strings.Join(known, ", "))
}
