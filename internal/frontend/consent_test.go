package frontend

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/tools"
)

// texts is the text of each line of a consent question's head, a change's
// lines marked with their kind ("+|" for an added one).
func texts(head []ConsentLine) []string {
	var out []string
	for _, l := range head {
		if l.Diff != 0 {
			out = append(out, fmt.Sprintf("%c|%s", l.Diff, l.Text))
			continue
		}
		out = append(out, l.Text)
	}
	return out
}

func TestConsentQuestion(t *testing.T) {
	const keys = "[y] yes"
	many := strings.Repeat("line\n", 45)
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
		{"the conversation goes along", orchestrator.ConsentRequest{Tool: "ask_agent", Subject: "kid", Detail: "kid", Question: "and?",
			Along: "the conversation so far goes along: 4 messages, 1200 characters"},
			[]string{"Allow ask_agent: kid, to ask:", "    and?", "    [the conversation so far goes along: 4 messages, 1200 characters]"}, "Allow this question? [y] yes"},
		{"an MCP tool's whole arguments", orchestrator.ConsentRequest{Tool: "fs__put", Subject: "notes.txt", Arguments: `{"command":"notes.txt","target":"/home/me/.ssh/authorized_keys\u202e"}`},
			[]string{"Allow fs__put, with these arguments:", `    {"command":"notes.txt","target":"/home/me/.ssh/authorized_keys\u202e"}`}, "Allow these arguments? [y] yes"},
		{"long arguments are cut", orchestrator.ConsentRequest{Tool: "fs__put", Arguments: `{"a":"` + strings.Repeat("x", 2100) + `"}`},
			[]string{"Allow fs__put, with these arguments:", `    {"a":"` + strings.Repeat("x", 1994),
				"    [the arguments go on for 108 more characters, not shown: all of them are sent]"}, "Allow these arguments? [y] yes"},
		{"a foreign agent's call, title and arguments", orchestrator.ConsentRequest{Agent: "gemini", Tool: "execute", Subject: "Run ls", Detail: "Run ls", Arguments: `{"command":"rm -rf ~"}`},
			[]string{"Allow [gemini] execute: Run ls, with these arguments:", `    {"command":"rm -rf ~"}`}, "Allow these arguments? [y] yes"},
		{"an edit", orchestrator.ConsentRequest{Tool: "edit_file", Subject: "f.txt",
			Change: &tools.Change{Path: "/p/f.txt", Old: "a\nb\nc\n", OldSize: -1, New: "a\nB\x1b[2K\nc\n"}},
			[]string{"Allow edit_file: f.txt, to make this change:", "@|@@ -1,3 +1,3 @@", " a", "-|-b", `+|+B\x1b[2K`, " c"}, "Allow this change? [y] yes"},
		{"a new file", orchestrator.ConsentRequest{Tool: "write_file", Subject: "n.txt",
			Change: &tools.Change{Path: "/p/n.txt", Created: true, OldSize: -1, New: "one\ntwo"}},
			[]string{"Allow write_file: n.txt, a new file of 2 lines (7 bytes):", "+|+one", "+|+two"}, "Allow this change? [y] yes"},
		{"a new empty file", orchestrator.ConsentRequest{Tool: "write_file", Subject: "n.txt",
			Change: &tools.Change{Path: "/p/n.txt", Created: true, OldSize: -1}},
			[]string{"Allow write_file: n.txt, a new empty file"}, "Allow this change? [y] yes"},
		{"a new file past a screenful", orchestrator.ConsentRequest{Tool: "write_file", Subject: "n.txt",
			Change: &tools.Change{Path: "/p/n.txt", Created: true, OldSize: -1, New: many}},
			append(append([]string{"Allow write_file: n.txt, a new file of 45 lines (225 bytes):"}, slices.Repeat([]string{"+|+line"}, 40)...),
				"[the change goes on for 5 more lines, not shown: all of it is written]"), "Allow this change? [y] yes"},
		{"a file too large to compare", orchestrator.ConsentRequest{Tool: "write_file", Subject: "big.log",
			Change: &tools.Change{Path: "/p/big.log", OldSize: 3 << 20, New: "x\n"}},
			[]string{"Allow write_file: big.log, replacing its 3 MiB (too large to compare) with 1 line (2 bytes):", "+|+x"}, "Allow this change? [y] yes"},
		{"no change", orchestrator.ConsentRequest{Tool: "write_file", Subject: "f.txt",
			Change: &tools.Change{Path: "/p/f.txt", Old: "same\n", OldSize: -1, New: "same\n"}},
			[]string{"Allow write_file: f.txt, leaving it as it is (the new content is the file's own)"}, "Allow this change? [y] yes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head, q := ConsentQuestion(tt.req, keys)
			if got := texts(head); !slices.Equal(got, tt.head) || q != tt.question {
				t.Errorf("ConsentQuestion = %q, %q; want %q, %q", got, q, tt.head, tt.question)
			}
		})
	}
}
