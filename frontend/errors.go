package frontend

import (
	"errors"
	"fmt"
	"io"

	"github.com/mm-agent/mm/mmconfigs"
)

// ReportError prints why mm cannot go on: a configuration error as
// "[config error: <path>:<line>: <message>]", anything else as "mm: …".
func ReportError(w io.Writer, err error) {
	var ce *mmconfigs.Error
	if errors.As(err, &ce) {
		fmt.Fprintln(w, ce.Report())
		return
	}
	fmt.Fprintf(w, "mm: %v\n", err)
}
