package acpconn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

type notified struct {
	method string
	params string
}

// read runs input through a Reader the way the SDK does, returning what
// the SDK gets, what went to Notify, what was answered and refused.
func read(t *testing.T, input string) (sdk string, notes []notified, answered string, refused []string) {
	t.Helper()
	var out bytes.Buffer
	r := NewReader(strings.NewReader(input), NewWriter(&out),
		func(m string, p json.RawMessage) { notes = append(notes, notified{m, string(p)}) },
		func(err error) { refused = append(refused, err.Error()) })
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), notes, out.String(), refused
}

func TestReaderRoutes(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"result":{}}
{"jsonrpc":"2.0","method":"session/update","params":{"a":1}}
{"jsonrpc":"2.0","id":"x","method":"session/request_permission","params":{}}
{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}
{"jsonrpc":"2.0","id":null,"method":"session/cancel","params":{"b":2}}
not json
{"jsonrpc":"2.0","method":"last","params":[]}`
	sdk, notes, answered, refused := read(t, in)
	wantSDK := `{"jsonrpc":"2.0","id":1,"result":{}}
{"jsonrpc":"2.0","id":"x","method":"session/request_permission","params":{}}
{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}
not json
`
	if sdk != wantSDK {
		t.Errorf("the SDK read:\n%s\nwant:\n%s", sdk, wantSDK)
	}
	wantNotes := []notified{{"session/update", `{"a":1}`}, {"session/cancel", `{"b":2}`}, {"last", `[]`}}
	if len(notes) != len(wantNotes) {
		t.Fatalf("notified %v, want %v", notes, wantNotes)
	}
	for i := range notes {
		if notes[i] != wantNotes[i] {
			t.Errorf("notification %d = %v, want %v", i, notes[i], wantNotes[i])
		}
	}
	if answered != "" || refused != nil {
		t.Errorf("answered %q, refused %v; want nothing", answered, refused)
	}
}

func TestReaderRefusesOverLimit(t *testing.T) {
	big := strings.Repeat("z", MaxMessage)
	tests := []struct {
		name, msg string
		answer    string // a format of the message's size
	}{
		{"request", `{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"t":"` + big + `"}}`,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"message of %d bytes refused: over the limit of 10485760 bytes (10 MiB) for one message"}}` + "\n"},
		{"string id", `{"id":"a-1","jsonrpc":"2.0","method":"x","params":"` + big + `"}`,
			`{"jsonrpc":"2.0","id":"a-1","error":{"code":-32600,"message":"message of %d bytes refused: over the limit of 10485760 bytes (10 MiB) for one message"}}` + "\n"},
		{"notification", `{"jsonrpc":"2.0","method":"session/cancel","params":"` + big + `"}`, ""},
		{"id after the params", `{"jsonrpc":"2.0","params":"` + big + `","id":3}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sdk, notes, answered, refused := read(t, tt.msg+"\n"+`{"jsonrpc":"2.0","id":2,"result":1}`+"\n")
			if sdk != `{"jsonrpc":"2.0","id":2,"result":1}`+"\n" {
				t.Errorf("the SDK read %.80q, want only the next message", sdk)
			}
			if len(notes) != 0 {
				t.Errorf("notified %d messages, want none", len(notes))
			}
			want := tt.answer
			if want != "" {
				want = fmt.Sprintf(want, len(tt.msg)+1) // the newline counts
			}
			if answered != want {
				t.Errorf("answered %q, want %q", answered, want)
			}
			if len(refused) != 1 {
				t.Errorf("refused %v, want one report", refused)
			}
		})
	}
}

func TestReaderAtLimit(t *testing.T) {
	head := `{"jsonrpc":"2.0","id":1,"result":"`
	msg := head + strings.Repeat("z", MaxMessage-len(head)-3) + `"}` + "\n"
	if len(msg) != MaxMessage {
		t.Fatalf("test message is %d bytes", len(msg))
	}
	sdk, _, answered, refused := read(t, msg)
	if sdk != msg || answered != "" || refused != nil {
		t.Errorf("a message of exactly MaxMessage bytes: passed %d bytes, answered %q, refused %v", len(sdk), answered, refused)
	}
}

func TestReaderNotJSON(t *testing.T) {
	var seen []string
	r := NewReader(strings.NewReader("Welcome to Agent 1.0\n\n  \n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n[1, 2\n"), NewWriter(io.Discard),
		func(string, json.RawMessage) {}, nil)
	r.OnNotJSON(func(line []byte) { seen = append(seen, string(line)) })
	if _, err := io.ReadAll(r); err != nil {
		t.Fatal(err)
	}
	want := []string{"Welcome to Agent 1.0\n", "[1, 2\n"}
	if fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("told of %q, want %q", seen, want)
	}
}

func TestIsResponse(t *testing.T) {
	for msg, want := range map[string]bool{
		`{"jsonrpc":"2.0","id":1,"result":{}}`:                              true,
		`{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"x"}}`:  true,
		`{"jsonrpc":"2.0","id":2,"method":"session/request_permission"}`:    false,
		`{"jsonrpc":"2.0","method":"session/update","params":{"result":1}}`: false,
		`{"jsonrpc":"2.0","result":{}}`:                                     false,
		`{"jsonrpc":"2.0","id":null,"result":{}}`:                           false,
		`[1]`:      false,
		`not json`: false,
	} {
		if got := isResponse([]byte(msg + "\n")); got != want {
			t.Errorf("isResponse(%s) = %v, want %v", msg, got, want)
		}
	}
}

// TestWriterAnswered: Answered is closed once every request the Reader
// passed on (or refused, answering it itself) has a response written;
// notifications, responses and the agent's own requests are not waited for.
func TestWriterAnswered(t *testing.T) {
	big := strings.Repeat("z", MaxMessage)
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}
{"jsonrpc":"2.0","method":"session/cancel","params":{}}
{"jsonrpc":"2.0","id":9,"result":{}}
{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{}}
{"jsonrpc":5,"id":3,"method":"skipped by the SDK, never answered"}
{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":"` + big + `"}
`
	var out bytes.Buffer
	w := NewWriter(&out)
	r := NewReader(strings.NewReader(in), w, func(string, json.RawMessage) {}, nil)
	if _, err := io.ReadAll(r); err != nil {
		t.Fatal(err)
	}
	answered := func() bool {
		select {
		case <-w.Answered():
			return true
		default:
			return false
		}
	}
	for i, msg := range []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{}}`,
		`{"jsonrpc":"2.0","id":5,"method":"session/request_permission","params":{}}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
	} {
		if answered() {
			t.Fatalf("answered before message %d", i)
		}
		w.Write([]byte(msg + "\n"))
	}
	if answered() {
		t.Fatal("answered with request 2 still open")
	}
	w.Write([]byte(`{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"x"}}` + "\n"))
	if !answered() {
		t.Error("not answered once every request has its response")
	}
}
