package frontend

import (
	"errors"
	"fmt"
	"io"

	"github.com/mm-agent/mm/mmconfigs"
)

// ReportError prints why mm cannot go on: a configuration error as
// "[config error: <path>: <message>]", anything else as "mm: …".
func ReportError(w io.Writer, err error) {
	var ce *mmconfigs.Error
	if errors.As(err, &ce) {
		fmt.Fprintf(w, "[config error: %s]\n", Visible(ce.Error()))
		return
	}
	fmt.Fprintf(w, "mm: %s\n", Visible(err.Error()))
}
