package question

import (
	"strings"
	"testing"
)

// TestAttach: the input piped beside a question follows it, named and
// fenced; a fence in it cannot close its own; white space alone adds
// nothing; more than the bound is cut at a line break, with a note.
func TestAttach(t *testing.T) {
	big := strings.Repeat("0123456789abcdef\n", MaxAttachedBytes/17+1)
	tests := []struct {
		name     string
		data     string
		cut      bool
		want     string
		wantKept int
		wantErr  string
	}{
		{"a log", "error: disk full\n", false, "explain\n\n[stdin]\n```\nerror: disk full\n```", 0, ""},
		{"a fence inside", "```go\nx\n```\n", false, "explain\n\n[stdin]\n````\n```go\nx\n```\n````", 0, ""},
		{"white space", " \n\t\n", false, "explain", 0, ""},
		{"not text", "a\x00b", false, "", 0, "stdin: a binary file (a NUL byte at offset 1): mm sends text only beside a question"},
		{"cut", big[:MaxAttachedBytes+1], true, "", 65535 - 65535%17, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, kept, err := Attach("explain", []byte(tc.data), tc.cut)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("err = %v, want %s", err, tc.wantErr)
				}
				return
			}
			if err != nil || kept != tc.wantKept {
				t.Fatalf("kept %d, err %v; want %d", kept, err, tc.wantKept)
			}
			if tc.cut {
				note := "\n```\n[stdin was cut: the first 64.0 KiB are above, the rest is left out (mm's limit for stdin beside a question)]"
				if !strings.HasSuffix(got, note) {
					t.Errorf("the end of the text is %q, want the note %q", got[len(got)-200:], note)
				}
				return
			}
			if got != tc.want {
				t.Errorf("Attach\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
