package fakegemini_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/mm-agent/mm/internal/fakegemini"
)

// TestRules: the first rule that applies answers, with its placeholders
// filled; say is cut into words.
func TestRules(t *testing.T) {
	answer, err := fakegemini.ParseRules("rules.yaml", []byte(`
rules:
  - afterTool: run_shell_command
    say: "The command said: {{output}}"
  - when: '(?i)^make (\w+)'
    say: "Making {{1}}."
    calls:
      - name: run_shell_command
        args: {command: touch made.txt}
  - say: "Gemini read: {{question}}"
`))
	if err != nil {
		t.Fatal(err)
	}
	question := `{"contents":[{"role":"user","parts":[{"text":"<session_context>…</session_context>"},{"text":"%s"}]}]}`
	for _, tc := range []struct {
		name, body string
		want       fakegemini.Reply
	}{{
		name: "the catch-all",
		body: sprintf(question, "What is an inode?"),
		want: fakegemini.Say("Gemini ", "read: ", "What ", "is ", "an ", "inode?"),
	}, {
		name: "when, with a group",
		body: sprintf(question, "Make a file"),
		want: fakegemini.Reply{Text: []string{"Making ", "a."}, Calls: []fakegemini.FunctionCall{{Name: "run_shell_command", Args: map[string]any{"command": "touch made.txt"}}}},
	}, {
		name: "afterTool, with the output",
		body: `{"contents":[{"role":"user","parts":[{"text":"Make a file"}]},{"role":"model","parts":[{"functionCall":{"name":"run_shell_command","args":{}}}]},` +
			`{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{"output":"done"}}}]}]}`,
		want: fakegemini.Say("The ", "command ", "said: ", "done"),
	}, {
		name: "afterTool, with the error",
		body: `{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{"error":"canceled"}}}]}]}`,
		want: fakegemini.Say("The ", "command ", "said: ", "canceled"),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var req fakegemini.Request
			if err := json.Unmarshal([]byte(tc.body), &req.Body); err != nil {
				t.Fatal(err)
			}
			if got := answer(req); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

// TestRulesNoRule: a request no rule fits is answered all the same, with
// a text that says so and quotes the question.
func TestRulesNoRule(t *testing.T) {
	answer, err := fakegemini.ParseRules("rules.yaml", []byte("rules:\n  - when: never\n    say: hi\n"))
	if err != nil {
		t.Fatal(err)
	}
	var req fakegemini.Request
	if err := json.Unmarshal([]byte(`{"contents":[{"role":"user","parts":[{"text":"What?"}]}]}`), &req.Body); err != nil {
		t.Fatal(err)
	}
	want := fakegemini.Say("(fake Gemini: no rule for this request) The question: What?")
	if got := answer(req); !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
}

// TestRulesErrors: a broken script is refused with its file and rule.
func TestRulesErrors(t *testing.T) {
	for _, tc := range []struct{ script, want string }{
		{"rules:\n  - sey: hi\n", "rules.yaml: yaml: unmarshal errors:\n  line 2: field sey not found in type fakegemini.Rule"},
		{"rules:\n  - when: '('\n    say: hi\n", "rules.yaml: rule 1: when: error parsing regexp: missing closing ): `(`"},
		{"rules:\n  - say: hi\n    delay: soon\n", `rules.yaml: rule 1: delay: time: invalid duration "soon"`},
		{"rules:\n  - when: x\n", "rules.yaml: rule 1: give say:, calls: or error:"},
		{"rules:\n  - error: no\n    say: hi\n", "rules.yaml: rule 1: error: goes with neither say: nor calls:"},
		{"rules:\n  - say: hi\n    code: 500\n", "rules.yaml: rule 1: code: goes with error:"},
	} {
		_, err := fakegemini.ParseRules("rules.yaml", []byte(tc.script))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: error %v, want %q", tc.script, err, tc.want)
		}
	}
}

func sprintf(format, s string) string {
	b, _ := json.Marshal(s)
	return fmt.Sprintf(format, string(b[1:len(b)-1]))
}
