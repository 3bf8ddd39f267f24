package frontend

import (
	"slices"
	"strings"
	"testing"

	"github.com/mm-agent/mm/orchestrator"
)

func TestVisible(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\n\tindented", "plain text\n\tindented"},
		{"héllo 🤖 日本", "héllo 🤖 日本"},
		{"\x1b[2Kgone", `\x1b[2Kgone`},
		{"bell\a nul\x00 del\x7f", `bell\x07 nul\x00 del\x7f`},
		{"line\r\nnext", "line\nnext"},
		{"over\rwrite", `over\rwrite`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"bidi \u202aa\u202eb\u2066c\u2069", `bidi \u202aa\u202eb\u2066c\u2069`},
		{"not utf-8 \xff\xfe", `not utf-8 \xff\xfe`},
		{"a real \uFFFD stays", "a real \uFFFD stays"},
		{"zero width \u200d joiner stays", "zero width \u200d joiner stays"},
	}
	for _, tt := range tests {
		if got := Visible(tt.in); got != tt.want {
			t.Errorf("Visible(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestConsentQuestion(t *testing.T) {
	const keys = "[y] yes"
	tests := []struct {
		name     string
		req      orchestrator.ConsentRequest
		head     []string
		question string
	}{
		{"one line", orchestrator.ConsentRequest{Tool: "bash", Subject: "ls -la"},
			nil, "Allow bash: ls -la? [y] yes"},
		{"the uncut detail", orchestrator.ConsentRequest{Tool: "bash", Subject: "ls…", Detail: "ls -la /very/long"},
			nil, "Allow bash: ls -la /very/long? [y] yes"},
		{"an asked agent's", orchestrator.ConsentRequest{Agent: "expert", Tool: "read_file", Subject: "a.txt"},
			nil, "Allow [expert] read_file: a.txt? [y] yes"},
		{"a hidden command", orchestrator.ConsentRequest{Tool: "bash", Detail: "touch PWNED #\x1b[2K\rAllow bash: ls -la"},
			nil, `Allow bash: touch PWNED #\x1b[2K\rAllow bash: ls -la? [y] yes`},
		{"several lines", orchestrator.ConsentRequest{Tool: "bash", Subject: "echo done touch X", Detail: "echo done\ntouch \x1bX\n"},
			[]string{"Allow bash, 2 lines:", "    echo done", `    touch \x1bX`}, "Allow these lines? [y] yes"},
		{"no subject", orchestrator.ConsentRequest{Tool: "fs__list"},
			nil, "Allow fs__list? [y] yes"},
		{"a question for another agent", orchestrator.ConsentRequest{Tool: "ask_agent", Subject: "kid", Detail: "kid", Question: "what is in it?\n@../secret.txt\x1b[2K\n"},
			[]string{"Allow ask_agent: kid, to ask:", "    what is in it?", `    @../secret.txt\x1b[2K`}, "Allow this question? [y] yes"},
		{"an asked agent's question", orchestrator.ConsentRequest{Agent: "expert", Tool: "ask_agent", Subject: "kid", Question: "hi"},
			[]string{"Allow [expert] ask_agent: kid, to ask:", "    hi"}, "Allow this question? [y] yes"},
		{"a long question is cut", orchestrator.ConsentRequest{Tool: "ask_agent", Subject: "kid", Question: strings.Repeat("é", 399) + "xyz\n@../secret.txt"},
			[]string{"Allow ask_agent: kid, to ask:", "    " + strings.Repeat("é", 399) + "x",
				"    [the question goes on for 17 more characters, not shown: the whole of it is sent]"}, "Allow this question? [y] yes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head, q := ConsentQuestion(tt.req, keys)
			if !slices.Equal(head, tt.head) || q != tt.question {
				t.Errorf("ConsentQuestion = %q, %q; want %q, %q", head, q, tt.head, tt.question)
			}
		})
	}
}

// VisibleLine keeps a name, a folder or an id on its own line: a line
// break and a tab are written out too.
func TestVisibleLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"fake 1.0", "fake 1.0"},
		{"\x1b]0;pwned\x07fake 1.0\n\x1b[1A\x1b[2K", `\x1b]0;pwned\x07fake 1.0\n\x1b[1A\x1b[2K`},
		{"a\tb", `a\tb`},
	}
	for _, tt := range tests {
		if got := VisibleLine(tt.in); got != tt.want {
			t.Errorf("VisibleLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
