package orchestrator

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// TestPermissionRules: the rules of permissions: are read after the
// preToolCall hooks and before the consent question — a deny refuses the
// call, under yolo too, whatever a hook allowed; an allow spares the
// question, never a hook's deny nor the person's never — and an "always"
// answer adds the prefix of the command, not the whole tool.
func TestPermissionRules(t *testing.T) {
	const denyHook = `hooks:
  preToolCall:
    - command: printf '{"action":"deny","reason":"no"}'
`
	const allowHook = `hooks:
  preToolCall:
    - command: printf '{"action":"allow"}'
`
	for _, tt := range []struct {
		name    string
		config  string
		yolo    bool
		calls   []string // bash commands, one a model reply
		answers []ConsentAnswer
		// asked are the questions asked; outputs what the model read.
		asked, outputs []string
		// always is what the first question's "always" offers.
		always *AlwaysOffer
	}{
		{name: "a deny refuses, and the model reads why",
			config:  "permissions:\n  deny:\n    - bash: rm -rf *\n",
			calls:   []string{"echo hi && rm -rf nothing-here"},
			outputs: []string{`[refused: the rule "bash: rm -rf *" in agent.yaml denies this call]`}},
		{name: "a deny holds under yolo",
			config: "permissions:\n  deny:\n    - bash: rm -rf *\n", yolo: true,
			calls:   []string{"rm -rf nothing-here", "echo ran"},
			outputs: []string{`[refused: the rule "bash: rm -rf *" in agent.yaml denies this call]`, "ran\n"}},
		{name: "a hook's allow does not lift a deny rule",
			config:  allowHook + "permissions:\n  deny:\n    - bash: rm *\n",
			calls:   []string{"rm x"},
			outputs: []string{`[refused: the rule "bash: rm *" in agent.yaml denies this call]`}},
		{name: "an allow spares the question of every command it covers",
			config:  "permissions:\n  allow:\n    - bash: echo *\n",
			calls:   []string{"echo hi", "echo a | echo b", "echo hi; pwd"},
			answers: []ConsentAnswer{RejectOnce},
			asked:   []string{"bash: echo hi; pwd"},
			outputs: []string{"hi\n", "b\n", "[refused: the person did not allow this call]"},
			always:  &AlwaysOffer{For: `"echo hi" and "pwd"`, SaveTo: "agent.yaml"}},
		{name: "an allow never overrides the person's never",
			config:  "permissions:\n  allow:\n    - bash: echo *\n",
			calls:   []string{"pwd", "echo hi"},
			answers: []ConsentAnswer{RejectAlways},
			asked:   []string{"bash: pwd"},
			outputs: []string{"[refused: the person said never for bash in this session]", "[refused: the person said never for bash in this session]"},
			always:  &AlwaysOffer{For: `"pwd"`, SaveTo: "agent.yaml"}},
		{name: "an allow never overrides a hook's deny",
			config:  denyHook + "permissions:\n  allow:\n    - bash\n",
			calls:   []string{"echo hi"},
			outputs: []string{"[denied by a hook: no]"}},
		{name: "always adds the command's prefix, not the tool",
			calls:   []string{"echo a", "echo a b", "echo b", "printf c"},
			answers: []ConsentAnswer{AllowAlways, AllowOnce, AllowOnce},
			asked:   []string{"bash: echo a", "bash: echo b", "bash: printf c"},
			outputs: []string{"a\n", "a b\n", "b\n", "c"},
			always:  &AlwaysOffer{For: `"echo a"`, SaveTo: "agent.yaml"}},
		{name: "no always for a command no prefix covers",
			calls:   []string{"echo a > out.txt"},
			answers: []ConsentAnswer{AllowAlways},
			asked:   []string{"bash: echo a > out.txt"},
			outputs: []string{"[no output]"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte(tt.config), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := mmconfigs.Load("agent.yaml", dir, func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			var replies []llm.Reply
			for i, c := range tt.calls {
				in, _ := json.Marshal(map[string]string{"command": c})
				replies = append(replies, llm.Reply{ToolCalls: []llm.ToolCall{call(string(rune('a'+i)), "bash", string(in))}})
			}
			m := &fakeModel{replies: append(replies, llm.Reply{Content: "ok"})}
			sink := &recSink{answers: tt.answers}
			s := newTestSession(t, cfg, m, sink)
			s.yolo = tt.yolo
			if err := s.Prompt(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(sink.asked, tt.asked) {
				t.Errorf("asked %q, want %q", sink.asked, tt.asked)
			}
			if got := m.lastToolOutputs(); !slices.Equal(got, tt.outputs) {
				t.Errorf("outputs %q, want %q", got, tt.outputs)
			}
			if len(sink.reqs) > 0 {
				got := sink.reqs[0].Always
				if (got == nil) != (tt.always == nil) || got != nil && *got != *tt.always {
					t.Errorf("always offers %+v, want %+v", got, tt.always)
				}
			}
		})
	}
}

// TestSavedAlways: the saved "always" answer appends the command's
// prefixes to permissions.allow in the file, says so, and the next call
// they cover is not asked about.
func TestSavedAlways(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "agent.yaml")
	if err := os.WriteFile(p, []byte("# mine\nyolo: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := mmconfigs.Load("agent.yaml", dir, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	m := &fakeModel{replies: []llm.Reply{
		{ToolCalls: []llm.ToolCall{call("a", "bash", `{"command":"echo a && printf b"}`)}},
		{ToolCalls: []llm.ToolCall{call("b", "bash", `{"command":"printf b c | echo a c"}`)}},
		{Content: "ok"},
	}}
	sink := &recSink{answers: []ConsentAnswer{AllowAlwaysSaved}}
	s := newTestSession(t, cfg, m, sink)
	if err := s.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"bash: echo a && printf b"}; !slices.Equal(sink.asked, want) {
		t.Errorf("asked %q, want %q", sink.asked, want)
	}
	got, _ := os.ReadFile(p)
	if want := "# mine\nyolo: false\npermissions:\n  allow:\n    - bash: echo a *\n    - bash: printf b *\n"; string(got) != want {
		t.Errorf("the file became\n%s\nwant\n%s", got, want)
	}
	var notices []string
	for _, ev := range sink.events {
		if n, ok := ev.(Notice); ok {
			notices = append(notices, n.Text)
		}
	}
	if want := []string{`saved "bash: echo a *" and "bash: printf b *" to permissions.allow in agent.yaml`}; !slices.Equal(notices, want) {
		t.Errorf("notices %q, want %q", notices, want)
	}
}

// TestRulesOfOtherTools: a file tool's rule matches the path its tool
// decodes, ask_agent's the agent; a rule of the whole tool covers all.
func TestRulesOfOtherTools(t *testing.T) {
	for _, tt := range []struct {
		name, config, tool, input string
		asked                     []string
		output                    string
	}{
		{"a file under an allowed folder", "permissions:\n  allow: [\"read_file: notes/**\"]\n", "read_file", `{"path":"notes/a.txt"}`, nil, "in notes\n"},
		{"a file outside it", "permissions:\n  allow: [\"read_file: notes/**\"]\n", "read_file", `{"path":"a.txt"}`, []string{"read_file: a.txt"}, "[refused: nobody can approve read_file here: run with --yolo, set yolo: true, or let a preToolCall hook allow it]"},
		{"a denied file", "permissions:\n  allow: [read_file]\n  deny: [\"read_file: **/a.txt\"]\n", "read_file", `{"path":"notes/a.txt"}`, nil, `[refused: the rule "read_file: **/a.txt" in agent.yaml denies this call]`},
		{"a denied agent", "permissions:\n  deny: [\"ask_agent: cloud\"]\nmmConfigs:\n  cloud: cloud.yaml\n", "ask_agent", `{"agent":"cloud","question":"the key is 42"}`, nil, `[refused: the rule "ask_agent: cloud" in agent.yaml denies this call]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range map[string]string{"agent.yaml": tt.config, "notes/a.txt": "in notes\n", "a.txt": "a\n"} {
				p := filepath.Join(dir, name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := mmconfigs.Load("agent.yaml", dir, func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			m := &fakeModel{replies: []llm.Reply{{ToolCalls: []llm.ToolCall{call("a", tt.tool, tt.input)}}, {Content: "ok"}}}
			sink := &recSink{}
			s := newTestSession(t, cfg, m, sink)
			if err := s.Prompt(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(sink.asked, tt.asked) {
				t.Errorf("asked %q, want %q", sink.asked, tt.asked)
			}
			if got := m.lastToolOutputs(); len(got) != 1 || got[0] != tt.output {
				t.Errorf("output %q, want %q", got, tt.output)
			}
		})
	}
}
