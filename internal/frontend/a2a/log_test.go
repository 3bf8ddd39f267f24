package a2a

import (
	"bytes"
	"testing"

	"github.com/mm-agent/mm/internal/frontend"
)

// mm serve's log shows a client's text (a context id) visibly, on its own
// line: a client cannot rewrite the server's terminal.
func TestLogLineIsVisible(t *testing.T) {
	var b bytes.Buffer
	l := frontend.NewServeLog(&b)
	l.Printf("context %s: saving its session: %v", "c1\x1b[2K\rmm serve: all fine\n", "disk full")
	want := `mm serve: context c1\x1b[2K\rmm serve: all fine\n: saving its session: disk full` + "\n"
	if b.String() != want {
		t.Errorf("log line %q\nwant %q", b.String(), want)
	}
}
