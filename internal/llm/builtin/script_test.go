package builtin

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
)

func loadTestScript(t *testing.T, name string) llm.Model {
	t.Helper()
	m, err := LoadScript(filepath.Join("testdata/script", name))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// step is one model call of a scripted conversation.
type step struct {
	add     []llm.Message // appended to the conversation before the call
	want    llm.Reply
	pieces  []string
	wantErr string
}

// play runs steps in order on m, appending each reply to the conversation.
func play(t *testing.T, m llm.Model, steps []step) {
	t.Helper()
	var msgs []llm.Message
	for i, s := range steps {
		msgs = append(msgs, s.add...)
		var pieces []string
		got, err := m.Stream(t.Context(), llm.Request{Messages: msgs}, func(p string) { pieces = append(pieces, p) })
		if s.wantErr != "" {
			if err == nil || err.Error() != s.wantErr {
				t.Fatalf("step %d: error\n got %v\nwant %s", i+1, err, s.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		if !reflect.DeepEqual(got, s.want) {
			t.Errorf("step %d: reply\n got %#v\nwant %#v", i+1, got, s.want)
		}
		if s.pieces != nil && !reflect.DeepEqual(pieces, s.pieces) {
			t.Errorf("step %d: pieces\n got %q\nwant %q", i+1, pieces, s.pieces)
		}
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Content: got.Content, ToolCalls: got.ToolCalls})
	}
}

func user(s string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: s} }

func TestScriptBash(t *testing.T) {
	play(t, loadTestScript(t, "bash.yaml"), []step{
		{
			add: []llm.Message{{Role: llm.RoleSystem, Content: "sys"}, user("Run ls -la")},
			want: llm.Reply{Content: "Running it.", FinishReason: "tool_calls", ToolCalls: []llm.ToolCall{
				{ID: "call_1", Name: "bash", Arguments: `{"command":"ls -la","timeout":30}`},
			}},
			pieces: []string{"Running ", "it."},
		},
		{
			// No Name: the tool is found through the call id.
			add:    []llm.Message{{Role: llm.RoleTool, ToolCallID: "call_1", Content: "a.txt\nb.txt"}},
			want:   llm.Reply{Content: "The command printed: a.txt\nb.txt", FinishReason: "stop"},
			pieces: []string{"The ", "command ", "printed: ", "a.txt\n", "b.txt"},
		},
		{
			add:  []llm.Message{user("thanks")},
			want: llm.Reply{Content: "You said: thanks", FinishReason: "stop"},
		},
		{
			// The output of another tool: afterTool: bash does not apply.
			add: []llm.Message{
				{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "x", Name: "read_file"}}},
				{Role: llm.RoleTool, ToolCallID: "x", Name: "read_file", Content: "text"},
			},
			want: llm.Reply{Content: "You said: thanks", FinishReason: "stop"},
		},
	})
}

func TestScriptFanOut(t *testing.T) {
	play(t, loadTestScript(t, "fanout.yaml"), []step{
		{
			add: []llm.Message{user("ask everyone: tea")},
			want: llm.Reply{FinishReason: "tool_calls", ToolCalls: []llm.ToolCall{
				{ID: "call_1", Name: "ask_agent", Arguments: `{"agent":"expert","question":"What is tea?"}`},
				{ID: "call_2", Name: "ask_agent", Arguments: `{"agent":"critic","question":"What is wrong with tea?","withContext":true}`},
				{ID: "call_3", Name: "ask_agent", Arguments: `{"agent":"historian","question":"Where does tea come from?"}`},
				{ID: "call_4", Name: "ask_agent", Arguments: `{"agent":"poet","question":"A line on <tea> & more","tags":["short","tea"],"weight":0.5,"extra":null}`},
			}},
		},
		{
			add: []llm.Message{
				{Role: llm.RoleTool, ToolCallID: "call_1", Content: "A drink."},
				{Role: llm.RoleTool, ToolCallID: "call_2", Content: "Too hot."},
				{Role: llm.RoleTool, ToolCallID: "call_3", Content: "China."},
				{Role: llm.RoleTool, ToolCallID: "call_4", Content: "Leaves\nin water."},
			},
			want: llm.Reply{Content: "All four answered:\n\nA drink.\n\nToo hot.\n\nChina.\n\nLeaves\nin water.", FinishReason: "stop"},
		},
	})
}

func TestScriptPieces(t *testing.T) {
	m := loadTestScript(t, "pieces.yaml")
	var pieces []string
	got, err := m.Stream(t.Context(), llm.Request{Messages: []llm.Message{user("slow")}}, func(p string) { pieces = append(pieces, p) })
	if err != nil {
		t.Fatal(err)
	}
	const text = "This answer is long enough to be cut into fifty pieces of about the same length, each one written after a short pause, like a model would write."
	if got.Content != text || strings.Join(pieces, "") != text || len(pieces) != 50 {
		t.Errorf("got %d pieces of %q, want 50 of %q", len(pieces), got.Content, text)
	}
	play(t, m, []step{
		{add: []llm.Message{user("words")}, want: llm.Reply{Content: " one two  three\nfour ", FinishReason: "stop"},
			pieces: []string{" one ", "two  ", "three\n", "four "}},
		{add: []llm.Message{user("tiny")}, want: llm.Reply{Content: "abc", FinishReason: "stop"},
			pieces: []string{"a", "b", "c"}},
	})
}

func TestScriptOnce(t *testing.T) {
	play(t, loadTestScript(t, "once.yaml"), []step{
		{add: []llm.Message{user("hello")}, want: llm.Reply{Content: "Hello, first time.", FinishReason: "stop"}},
		{add: []llm.Message{user("hello")}, want: llm.Reply{Content: "Hello again.", FinishReason: "stop"}},
		{add: []llm.Message{user("hello")}, want: llm.Reply{Content: "Hello again.", FinishReason: "stop"}},
		{add: []llm.Message{user("bye")}, wantErr: `script testdata/script/once.yaml: no rule matches the last message (user): "bye"; add a rule for it (a rule without when: matches anything)`},
		{add: []llm.Message{user(strings.Repeat("é", 100))}, wantErr: `script testdata/script/once.yaml: no rule matches the last message (user): "` + strings.Repeat("é", 80) + `…"; add a rule for it (a rule without when: matches anything)`},
	})
	_, err := loadTestScript(t, "once.yaml").Stream(t.Context(), llm.Request{}, nil)
	if want := "script testdata/script/once.yaml: no rule matches an empty conversation"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestScriptOnceConcurrent(t *testing.T) {
	m := loadTestScript(t, "once.yaml")
	var mu sync.Mutex
	count := map[string]int{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			r, err := m.Stream(context.Background(), llm.Request{Messages: []llm.Message{user("hello")}}, nil)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			count[r.Content]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if count["Hello, first time."] != 1 || count["Hello again."] != 7 {
		t.Errorf("answers: %v", count)
	}
}

func TestScriptFailAndRaw(t *testing.T) {
	play(t, loadTestScript(t, "fail.yaml"), []step{
		{add: []llm.Message{user("crash now")}, wantErr: "HTTP 500: crash now broke it"},
		{add: []llm.Message{user("garbage")}, want: llm.Reply{FinishReason: "tool_calls", ToolCalls: []llm.ToolCall{
			{ID: "call_1", Name: "bash", Arguments: `{"command": "garbage`},
		}}},
	})
}

func TestScriptCancel(t *testing.T) {
	m := loadTestScript(t, "fail.yaml")
	for _, q := range []string{"slow", "quiet"} {
		ctx, cancel := context.WithCancel(t.Context())
		go cancel()
		_, err := m.Stream(ctx, llm.Request{Messages: []llm.Message{user(q)}}, nil)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: got %v, want context.Canceled", q, err)
		}
	}
}

func TestScriptErrors(t *testing.T) {
	tests := []struct{ file, want string }{
		{"syntax.yaml", "$F:3:10: sequence end token ']' not found"},
		{"empty.yaml", "$F: the file is empty: it needs rules:"},
		{"norules.yaml", "$F: no rules: the file needs a rules: list"},
		{"unknown_top.yaml", `$F:1: unknown key "rule" (did you mean "rules"?)`},
		{"unknown_rule.yaml", `$F:4: rule 2: unknown key "sya" (did you mean "say"?)`},
		{"twice.yaml", `$F:3: rules[0]: key "say" is given twice (first on line 2)`},
		{"two_documents.yaml", "$F:3: a second YAML document (after ---): a file holds one; remove the --- line and what follows, or merge them"},
		{"alias.yaml", "$F:4: rules[1].say: alias *greeting: mm's files take no YAML aliases; write the value out"},
		{"laughs.yaml", "$F:7: rules[0].calls[0].args.b[0]: alias *a: mm's files take no YAML aliases; write the value out"},
		{"rule_text.yaml", "$F:2: rule 1: want a map of keys, e.g. when: and say:"},
		{"regexp.yaml", "$F:2: rule 1: when: error parsing regexp: missing closing ): `(unclosed`"},
		{"group.yaml", "$F:3: rule 1: say: {{2}}: the when regexp has no group 2"},
		{"placeholder.yaml", "$F:2: rule 1: say: unknown placeholder {{answer}} (known: {{question}}, {{questions}}, {{last}}, {{output}}, {{outputs}}, {{system}}, and the when regexp's groups as {{1}} or {{name}})"},
		{"says_nothing.yaml", "$F:2: rule 1: says nothing: give it say, calls or fail"},
		{"role.yaml", `$F:2: rule 1: role: "human" is not a role: want user or tool (or assistant, system)`},
		{"delay.yaml", `$F:2: rule 1: delay: "fast" is not a duration: want e.g. 20ms or 1.5s`},
		{"pieces.yaml", `$F:3: rule 1: pieces: "0": want a whole number of at least 1`},
		{"fail_say.yaml", "$F:2: rule 1: fail: a failing rule cannot also say or call"},
		{"call_name.yaml", "$F:3: rule 1: call 1: no name: say which tool to call"},
		{"call_key.yaml", `$F:4: rule 1: call 1: unknown key "arguments" (known: name, args, rawArgs)`},
		{"call_args.yaml", "$F:4: rule 1: call 1: args: want a map of argument names to values"},
		{"args_inf.yaml", "$F:4: rule 1: call 1: args.n: .inf is not a number JSON can hold"},
		{"missing.yaml", "$F: cannot read: no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, err := LoadScript(filepath.Join("testdata/script/bad", tt.file))
			want := strings.ReplaceAll(tt.want, "$F", filepath.Join("testdata/script/bad", tt.file))
			if err == nil || err.Error() != want {
				t.Errorf("got  %v\nwant %s", err, want)
			}
		})
	}
}

func TestSplitPieces(t *testing.T) {
	tests := []struct {
		text string
		n    int
		want []string
	}{
		{"", 0, nil},
		{"", 3, nil},
		{"word", 0, []string{"word"}},
		{"  lead and trail  ", 0, []string{"  lead ", "and ", "trail  "}},
		{"a\n\nb", 0, []string{"a\n\n", "b"}},
		{"abcdef", 3, []string{"ab", "cd", "ef"}},
		{"abcdefg", 3, []string{"ab", "cd", "efg"}},
		{"héllo", 5, []string{"h", "é", "l", "l", "o"}},
		{"ab", 5, []string{"a", "b"}},
	}
	for _, tt := range tests {
		if got := splitPieces(tt.text, tt.n); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitPieces(%q, %d) = %q, want %q", tt.text, tt.n, got, tt.want)
		}
	}
}

func TestExpand(t *testing.T) {
	fill := func(name string) string { return "<" + name + ">" }
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"{{question}}", "<question>"},
		{"a {{ last }} b {{1}}{{topic}}", "a <last> b <1><topic>"},
		{"{{.Go}} and {{ x y }} stay", "{{.Go}} and {{ x y }} stay"},
		{"{{unclosed", "{{unclosed"},
		{"}}{{output}}{{", "}}<output>{{"},
		{"{{{{last}}}}", "{{<last>}}"},
	}
	for _, tt := range tests {
		if got := expand(tt.in, fill); got != tt.want {
			t.Errorf("expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func BenchmarkScript(b *testing.B) {
	m, err := LoadScript("testdata/script/fanout.yaml")
	if err != nil {
		b.Fatal(err)
	}
	req := llm.Request{Messages: []llm.Message{user("ask everyone: tea")}}
	for b.Loop() {
		if _, err := m.Stream(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestScriptQuestions: {{questions}} quotes every user message so far.
func TestScriptQuestions(t *testing.T) {
	m := loadTestScript(t, "questions.yaml")
	play(t, m, []step{
		{add: []llm.Message{user("first")}, want: llm.Reply{Content: "I was asked:\nfirst", FinishReason: "stop"}},
		{add: []llm.Message{user("second")}, want: llm.Reply{Content: "I was asked:\nfirst\n\nsecond", FinishReason: "stop"}},
	})
}

// TestScriptSummary: a rule with summary: true answers only a
// compression's summary request, one with summary: false only a turn's
// call.
func TestScriptSummary(t *testing.T) {
	m := loadTestScript(t, "summary.yaml")
	msgs := []llm.Message{user("what is 2+2?")}
	for _, tc := range []struct{ purpose, want string }{
		{"", "Answer to what is 2+2?"},
		{llm.PurposeSummary, "Summary: the person asked what is 2+2?"},
		{"", "Answer to what is 2+2?"},
	} {
		got, err := m.Stream(t.Context(), llm.Request{Messages: msgs, Purpose: tc.purpose}, nil)
		if err != nil || got.Content != tc.want {
			t.Errorf("purpose %q: %q, %v; want %q", tc.purpose, got.Content, err, tc.want)
		}
	}
}
