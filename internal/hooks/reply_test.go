package hooks

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecodeReply(t *testing.T) {
	tests := []struct {
		ev     Event
		stdout string
		want   string // the reply as JSON, or the failure
	}{
		{PreGeneration, "", `{"action":"continue"}`},
		{PreGeneration, " \n\t", `{"action":"continue"}`},
		{PreGeneration, "{}", `{"action":"continue"}`},
		{PreGeneration, `{"action":null}`, `{"action":"continue"}`},
		{PreGeneration, `{"prompt":""}`, `{"action":"continue","prompt":""}`},
		{PreGeneration, `{"prompt":null}`, `{"action":"continue"}`},
		{PreGeneration, `{"context":"  \n"}`, `{"action":"continue"}`},
		{PreGeneration, `{"action":"stop","reason":"r","response":"no"}`, `{"action":"stop","reason":"r","response":"no"}`},
		// Fields the event does not read are ignored, whatever their type.
		{PreGeneration, `{"transcript":5,"answer":[],"input":{"a":1}}`, `{"action":"continue"}`},
		{PreToolCall, "{\"input\": {\"command\" : \"ls && rm\"},\n \"prompt\":\"x\"}", `{"action":"continue","input":{"command":"ls && rm"}}`},
		{PreToolCall, `{"input":null}`, `{"action":"continue"}`},
		{PreToolCall, `{"input":"text"}`, `{"action":"continue","input":"text"}`},
		{PreToolCall, `{"action":"allow","reason":"safe"}`, `{"action":"allow","reason":"safe"}`},
		{PostToolCall, `{"context":"c","reason":"r"}`, `{"action":"continue","context":"c"}`},
		{PostGeneration, `{"context":"c","prompt":"p"}`, `{"action":"continue"}`},
		{PreAsk, `{"prompt":"p","transcript":"","context":"c","answer":"a"}`, `{"action":"continue","prompt":"p","transcript":"","context":"c"}`},
		{PostAsk, `{"answer":"","context":"c","prompt":"p"}`, `{"action":"continue","answer":"","context":"c"}`},
		// Keys are exact: a capitalised one is not the field.
		{PostAsk, `{"Answer":"a"}`, `{"action":"continue"}`},

		{PreGeneration, "nope", `invalid JSON on stdout: invalid character 'o' in literal null (expecting 'u')`},
		{PreGeneration, "{", `invalid JSON on stdout: unexpected end of JSON input`},
		{PreGeneration, `{} {}`, `invalid JSON on stdout: invalid character '{' after top-level value`},
		{PreGeneration, `[]`, `invalid JSON on stdout: the reply must be an object, not an array`},
		{PreGeneration, `"continue"`, `invalid JSON on stdout: the reply must be an object, not a string`},
		{PreGeneration, `42`, `invalid JSON on stdout: the reply must be an object, not a number`},
		{PreGeneration, `true`, `invalid JSON on stdout: the reply must be an object, not a boolean`},
		{PreGeneration, `null`, `invalid JSON on stdout: the reply must be an object, not null`},
		{PreGeneration, `{"prompt":5}`, `invalid JSON on stdout: "prompt" must be a string, not a number`},
		{PreAsk, `{"transcript":{}}`, `invalid JSON on stdout: "transcript" must be a string, not an object`},
		{PostAsk, `{"context":["a"]}`, `invalid JSON on stdout: "context" must be a string, not an array`},
		{PreToolCall, `{"action":true}`, `invalid JSON on stdout: "action" must be a string, not a boolean`},
		// A key given twice is refused, not taken last-wins: at the top,
		// inside input at any depth, and in a field the event ignores.
		{PreToolCall, `{"action":"deny","reason":"r","action":"allow"}`, `invalid JSON on stdout: key "action" is given twice`},
		{PreToolCall, `{"input":{"path":"notes.txt","path":"/home/me/.ssh/authorized_keys"}}`, `invalid JSON on stdout: input: key "path" is given twice`},
		{PreToolCall, `{"input":{"edits":[{"old":"a","new":"b"},{"old":"c","old":"d"}]}}`, `invalid JSON on stdout: input.edits[1]: key "old" is given twice`},
		{PreToolCall, `{"context":"a","context":"b"}`, `invalid JSON on stdout: key "context" is given twice`},
		{PostGeneration, `{"reason":"a","\u0072eason":"b"}`, `invalid JSON on stdout: key "reason" is given twice`},

		{PreGeneration, `{"action":"error","error":"no key"}`, `no key`},
		{PostGeneration, `{"action":"error"}`, `the hook reported an error`},
		{PostGeneration, `{"action":"error","error":"  "}`, `the hook reported an error`},
		{PreGeneration, `{"action":"Continue"}`, `action "Continue" is not valid for preGeneration`},
		{PreToolCall, `{"action":"stop"}`, `action "stop" is not valid for preToolCall`},
		{PreAsk, `{"action":"allow"}`, `action "allow" is not valid for preAsk`},
		{PreGeneration, `{"action":"deny"}`, `action "deny" is not valid for preGeneration`},
	}
	for _, tt := range tests {
		r, err := DecodeReply(tt.ev, []byte(tt.stdout))
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = plainJSON(t, r)
		}
		if got != tt.want {
			t.Errorf("%s %q:\n got %s\nwant %s", tt.ev, tt.stdout, got, tt.want)
		}
	}
}

// plainJSON marshals v without escaping '&', '<' and '>'.
func plainJSON(t *testing.T, v any) string {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func TestActionsPerEvent(t *testing.T) {
	valid := map[Event]string{
		PreGeneration:  "continue stop error",
		PreToolCall:    "continue deny allow error",
		PostToolCall:   "continue error",
		PostGeneration: "continue error",
		PreAsk:         "continue deny error",
		PostAsk:        "continue error",
	}
	for _, ev := range Events {
		for _, action := range []string{"continue", "stop", "deny", "allow", "error", "ask", ""} {
			_, err := DecodeReply(ev, []byte(`{"action":"`+action+`","error":"e"}`))
			want := ""
			switch {
			case action == "error":
				want = "e"
			case action != "" && !strings.Contains(" "+valid[ev]+" ", " "+action+" "):
				want = `action "` + action + `" is not valid for ` + string(ev)
			}
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != want {
				t.Errorf("%s %q: failure %q, want %q", ev, action, got, want)
			}
		}
	}
}

func FuzzDecodeReply(f *testing.F) {
	for _, s := range []string{
		"", "{}", `{"action":"stop","reason":"r"}`, `{"input":{"a":[1,2]}}`,
		`{"prompt":"p","transcript":"t","answer":"a","context":"c"}`, `{"action":"error"}`,
		`[1]`, `null`, `{"action":"allow","input":null}`, "{\"context\":\"\u00e9\"}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, stdout string) {
		for _, ev := range Events {
			r, err := DecodeReply(ev, []byte(stdout))
			if err != nil {
				if err.Error() == "" {
					t.Fatalf("%s %q: empty failure", ev, stdout)
				}
				continue
			}
			if !actionValid(ev, r.Action) || r.Action == ActionError {
				t.Fatalf("%s %q: action %q accepted", ev, stdout, r.Action)
			}
			if r.Input != nil && (ev != PreToolCall || !json.Valid(r.Input)) {
				t.Fatalf("%s %q: input %q", ev, stdout, r.Input)
			}
			reads := map[string]bool{}
			for _, k := range fieldsRead(ev) {
				reads[k] = true
			}
			set := map[string]bool{
				"prompt": r.Prompt != nil, "transcript": r.Transcript != nil, "answer": r.Answer != nil,
				"context": r.Context != "", "reason": r.Reason != "", "response": r.Response != "",
			}
			for k, isSet := range set {
				if isSet && !reads[k] {
					t.Fatalf("%s %q: %s set though the event does not read it", ev, stdout, k)
				}
			}
			if r.Context != "" && strings.TrimSpace(r.Context) == "" {
				t.Fatalf("%s %q: blank context kept", ev, stdout)
			}
			// The decision text never fails and never shows the context.
			if d := decision(r); d == "" {
				t.Fatalf("%s %q: empty decision", ev, stdout)
			}
		}
	})
}
