package strictyaml

import (
	"fmt"
	"strings"

	"github.com/mm-agent/mm/internal/suggest"

	"gopkg.in/yaml.v3"
)

// UnknownKey is the error for the map key key, which is none of known:
// `line 3: unknown key "tool" (did you mean "tools"?)`, or, when no known
// key is near, `line 3: unknown key "foo" (known: model, tools)`.
func UnknownKey(key *yaml.Node, known []string) error {
	if near := suggest.Nearest(key.Value, known); near != "" {
		return fmt.Errorf("line %d: unknown key %q (did you mean %q?)", key.Line, key.Value, near)
	}
	return fmt.Errorf("line %d: unknown key %q (known: %s)", key.Line, key.Value, strings.Join(known, ", "))
}
