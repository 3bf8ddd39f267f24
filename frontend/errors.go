package frontend

import (
	"errors"
	"fmt"
	"io"

	"github.com/mm-agent/mm/mmconfigs"
)

// reportStartError prints why a session could not start: a configuration
// error as "[config error: <path>: <message>]", anything else as "mm: …".
func reportStartError(w io.Writer, err error) {
	var ce *mmconfigs.Error
	if errors.As(err, &ce) {
		fmt.Fprintf(w, "[config error: %s]\n", ce)
		return
	}
	fmt.Fprintf(w, "mm: %v\n", err)
}

// ConfigError prints a configuration error as the front ends do.
func ConfigError(w io.Writer, err error) { reportStartError(w, err) }
