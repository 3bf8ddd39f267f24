package line

import (
	"bytes"
	"testing"
)

func TestVisibleWriter(t *testing.T) {
	var b bytes.Buffer
	w := newVisibleWriter(&b)
	if newVisibleWriter(w) != w {
		t.Error("a visible writer was wrapped twice")
	}
	for _, s := range []string{"a\x1b", "[31mb"} {
		if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if got, want := b.String(), `a\x1b[31mb`; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}
