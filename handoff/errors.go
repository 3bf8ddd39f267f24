package handoff

import (
	"fmt"
	"strings"
)

// UnknownAgentError is an ask to a name mmConfigs does not have.
func UnknownAgentError(name string, known []string) error {
	k := strings.Join(known, ", ")
	if k == "" {
		k = "none: add mmConfigs to the configuration"
	}
	return fmt.Errorf("no agent %q in mmConfigs (known: %s)", name, k)
}

// DepthError is an ask that would run deeper than maxAskDepth.
func DepthError(name string, depth, max int) error {
	return fmt.Errorf("ask refused: %s would run at depth %d, beyond maxAskDepth %d", name, depth, max)
}
