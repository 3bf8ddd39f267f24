package line

import (
	"io"

	"github.com/mm-agent/mm/internal/frontend"
)

// visibleWriter shows everything written to it through frontend.Visible.
// Each write is a whole piece of text (pieces are whole runes, as decoded
// from JSON or cut by the scripted model).
type visibleWriter struct{ w io.Writer }

// newVisibleWriter wraps w; nil stays nil.
func newVisibleWriter(w io.Writer) io.Writer {
	if _, ok := w.(visibleWriter); ok || w == nil {
		return w
	}
	return visibleWriter{w}
}

func (vw visibleWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(vw.w, frontend.Visible(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
