package frontend

import (
	"errors"
	"fmt"
	"io"

	"github.com/mm-agent/mm/mmconfigs"
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
