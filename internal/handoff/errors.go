package handoff

import (
	"fmt"
	"strings"

	"github.com/mm-agent/mm/internal/suggest"
)

// UnknownAgentError is an ask to a name mmConfigs does not have. A caller
// tells it apart with errors.As.
type UnknownAgentError struct {
	// Name is the agent asked for.
	Name string
	// Known are the names mmConfigs has, in the order they are listed.
	Known []string
}

// Error names the agent and the ones mmConfigs has, or says to add
// mmConfigs; then the one it probably meant.
func (e *UnknownAgentError) Error() string {
	k := strings.Join(e.Known, ", ")
	if k == "" {
		k = "none: add mmConfigs to the configuration"
	}
	return fmt.Sprintf("no agent %q in mmConfigs (known: %s)", e.Name, k) + suggest.DidYouMean(e.Name, e.Known)
}

// DepthError is an ask that would run deeper than maxAskDepth. A caller
// tells it apart with errors.As.
type DepthError struct {
	// Name is the agent asked for.
	Name string
	// Depth is the depth the ask would run at; Max is maxAskDepth.
	Depth, Max int
}

// Error names the agent, the depth and maxAskDepth.
func (e *DepthError) Error() string {
	return fmt.Sprintf("ask refused: %s would run at depth %d, beyond maxAskDepth %d", e.Name, e.Depth, e.Max)
}
