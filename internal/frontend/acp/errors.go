package acp

import (
	"errors"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// errorText is err as the editor reads it: a configuration error as every
// front end shows it, "[config error: <path>:<line>: <message>]" (a syntax
// error's excerpt under it), anything else as it is.
func errorText(err error) string {
	var ce *orchestrator.ConfigError
	if errors.As(err, &ce) {
		return ce.Report()
	}
	return err.Error()
}
