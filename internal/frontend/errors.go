package frontend

import (
	"errors"
	"fmt"
	"io"

	"github.com/mm-agent/mm/internal/mmconfigs"
)

// ReportError prints why mm cannot go on: a configuration error as
// "[config error: <path>:<line>: <message>]" (a syntax error's excerpt
// under it), anything else as "mm: …".
func ReportError(w io.Writer, err error) {
	var ce *mmconfigs.Error
	if errors.As(err, &ce) {
		fmt.Fprintln(w, Visible(ce.Report()))
		return
	}
	fmt.Fprintf(w, "mm: %s\n", Visible(err.Error()))
}

// ErrorText is why mm cannot go on as the JSON output's error says it: a
// configuration error in the form every mode prints, "[config error: …]"
// (a syntax error's excerpt under it), anything else as its message; not
// made visible, as the JSON output escapes what a terminal would obey.
func ErrorText(err error) string {
	var ce *mmconfigs.Error
	if errors.As(err, &ce) {
		return ce.Report()
	}
	return err.Error()
}
