package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/handoff"
	"github.com/mm-agent/mm/internal/mustend"
)

// reply is a hook that writes stdout and nothing else.
func reply(stdout string) Entry {
	return hook(`printf '%s' '` + stdout + `'`)
}

// sampleInput is the input each event's tests start from.
func sampleInput(ev Event) Input {
	in := Input{Event: ev}
	switch ev {
	case PreGeneration:
		in.Prompt = "list the files"
	case PreToolCall, PostToolCall:
		in.Tool = &ToolCall{ID: "call_1", Name: "bash", Input: json.RawMessage(`{"command":"ls"}`)}
		if ev == PostToolCall {
			in.Output = "a b"
		}
	case PostGeneration:
		in.Prompt, in.Answer = "list the files", "a b"
	case PreAsk, PostAsk:
		in.Ask = &handoff.Ask{Agent: "expert", Config: "/p/agent.expert.yaml", Via: handoff.ViaTool, WithContext: true, Prompt: "Q", Transcript: "user: hi"}
		if ev == PostAsk {
			in.Answer = "An inode"
		}
	}
	return in
}

const askJSON = `"agent":"expert","config":"/p/agent.expert.yaml","via":"tool","withContext":true,"depth":0`

func TestEveryActionOnEveryEvent(t *testing.T) {
	const (
		empty    = ``
		cont     = `{"action":"continue"}`
		full     = `{"prompt":"P","transcript":"T","answer":"A","context":"ctx","input":{"x":1},"reason":"r","response":"resp"}`
		stop     = `{"action":"stop","reason":"r","response":"resp"}`
		deny     = `{"action":"deny","reason":"r"}`
		allow    = `{"action":"allow","reason":"r","input":{"x":1}}`
		errReply = `{"action":"error","error":"boom"}`
		bogus    = `{"action":"bogus"}`
	)
	unchanged := map[Event]string{
		PreGeneration:  `{"prompt":"list the files"}`,
		PreToolCall:    `{"input":{"command":"ls"}}`,
		PostToolCall:   `{}`,
		PostGeneration: `{}`,
		PreAsk:         `{"ask":{` + askJSON + `,"prompt":"Q","transcript":"user: hi"}}`,
		PostAsk:        `{"answer":"An inode"}`,
	}
	type want struct{ decision, result, failure string }
	invalid := func(action string, ev Event) want {
		return want{"failed", unchanged[ev], fmt.Sprintf("action %q is not valid for %s", action, ev)}
	}
	tests := map[Event]map[string]want{
		PreGeneration: {
			full:  {"prompt replaced + context (3 chars)", `{"prompt":"P","contexts":["ctx"]}`, ""},
			stop:  {"stop", `{"prompt":"list the files","stop":true,"reason":"r","response":"resp"}`, ""},
			deny:  invalid("deny", PreGeneration),
			allow: invalid("allow", PreGeneration),
		},
		PreToolCall: {
			full:  {"input replaced", `{"input":{"x":1},"inputReplaced":true}`, ""},
			stop:  invalid("stop", PreToolCall),
			deny:  {"deny", `{"input":{"command":"ls"},"deny":true,"reason":"r"}`, ""},
			allow: {"allow + input replaced", `{"input":{"x":1},"inputReplaced":true,"allow":true}`, ""},
		},
		PostToolCall: {
			full:  {"context (3 chars)", `{"contexts":["ctx"]}`, ""},
			stop:  invalid("stop", PostToolCall),
			deny:  invalid("deny", PostToolCall),
			allow: invalid("allow", PostToolCall),
		},
		PostGeneration: {
			full:  {"continue", `{}`, ""},
			stop:  invalid("stop", PostGeneration),
			deny:  invalid("deny", PostGeneration),
			allow: invalid("allow", PostGeneration),
		},
		PreAsk: {
			full:  {"prompt replaced + transcript replaced + context (3 chars)", `{"ask":{` + askJSON + `,"prompt":"P","transcript":"T"},"contexts":["ctx"]}`, ""},
			stop:  invalid("stop", PreAsk),
			deny:  {"deny", `{"ask":{` + askJSON + `,"prompt":"Q","transcript":"user: hi"},"deny":true,"reason":"r"}`, ""},
			allow: invalid("allow", PreAsk),
		},
		PostAsk: {
			full:  {"answer replaced + context (3 chars)", `{"answer":"A","replaced":true,"contexts":["ctx"]}`, ""},
			stop:  invalid("stop", PostAsk),
			deny:  invalid("deny", PostAsk),
			allow: invalid("allow", PostAsk),
		},
	}
	for _, ev := range Events {
		cases := tests[ev]
		cases[empty] = want{"continue", unchanged[ev], ""}
		cases[cont] = want{"continue", unchanged[ev], ""}
		cases[errReply] = want{"failed", unchanged[ev], "boom"}
		cases[bogus] = invalid("bogus", ev)
		for stdout, w := range cases {
			t.Run(string(ev)+" "+stdout, func(t *testing.T) {
				t.Parallel()
				eng, _ := testEngine(t, configOf(ev, reply(stdout)))
				var rec recorder
				res, err := eng.Simulate(context.Background(), ev, sampleInput(ev), "", rec.observe)
				if err != nil {
					t.Fatal(err)
				}
				if got := plainJSON(t, res); got != w.result {
					t.Errorf("result\n got %s\nwant %s", got, w.result)
				}
				run := rec.runs[0]
				if run.Decision != w.decision || run.Failure != w.failure {
					t.Errorf("decision %q failure %q, want %q %q", run.Decision, run.Failure, w.decision, w.failure)
				}
			})
		}
	}
}

func TestOnError(t *testing.T) {
	const failing = `echo bad >&2; exit 3`
	second := map[Event]string{
		PreGeneration:  `{"context":"c2"}`,
		PreToolCall:    `{"input":{"y":2}}`,
		PostToolCall:   `{"context":"c2"}`,
		PostGeneration: `{}`,
		PreAsk:         `{"context":"c2"}`,
		PostAsk:        `{"context":"c2"}`,
	}
	secondDecision := map[Event]string{
		PreToolCall:    "input replaced",
		PostGeneration: "continue",
	}
	carried := map[Event]string{
		PreGeneration:  `{"prompt":"list the files","contexts":["c2"]}`,
		PreToolCall:    `{"input":{"y":2},"inputReplaced":true}`,
		PostToolCall:   `{"contexts":["c2"]}`,
		PostGeneration: `{}`,
		PreAsk:         `{"ask":{` + askJSON + `,"prompt":"Q","transcript":"user: hi"},"contexts":["c2"]}`,
		PostAsk:        `{"answer":"An inode","contexts":["c2"]}`,
	}
	stopped := map[Event]string{
		PreGeneration: `{"prompt":"list the files","stop":true,"reason":"hook failed: exit status 3: bad","response":"⛔ This request was blocked by a hook: hook failed: exit status 3: bad"}`,
		PreToolCall:   `{"input":{"command":"ls"},"deny":true,"reason":"hook failed: exit status 3: bad"}`,
		PreAsk:        `{"ask":{` + askJSON + `,"prompt":"Q","transcript":"user: hi"},"deny":true,"reason":"hook failed: exit status 3: bad"}`,
	}
	for _, ev := range Events {
		for _, onErr := range []string{OnErrorFail, OnErrorWarn, OnErrorIgnore} {
			t.Run(string(ev)+" "+onErr, func(t *testing.T) {
				t.Parallel()
				first := hook(failing)
				first.OnError = onErr
				eng, _ := testEngine(t, configOf(ev, first, reply(second[ev])))
				var rec recorder
				res, err := eng.Simulate(context.Background(), ev, sampleInput(ev), "", rec.observe)
				if err != nil {
					t.Fatal(err)
				}

				subject := ""
				switch ev {
				case PreToolCall, PostToolCall:
					subject = " [bash]"
				case PreAsk, PostAsk:
					subject = " [expert]"
				}
				wantLines := []string{fmt.Sprintf("🪝 1. %s%s · %s → failed", ev, subject, failing)}
				if onErr != OnErrorIgnore {
					wantLines = append(wantLines, fmt.Sprintf("🪝 %s hook `%s`: exit status 3: bad", ev, failing))
				}
				wantResult := carried[ev]
				if onErr == OnErrorFail && ev.cancellable() && ev != PostToolCall {
					wantResult = stopped[ev]
				} else {
					d := secondDecision[ev]
					if d == "" {
						d = "context (2 chars)"
					}
					wantLines = append(wantLines, fmt.Sprintf("🪝 2. %s%s · printf '%%s' '%s' → %s", ev, subject, second[ev], d))
				}
				if got := plainJSON(t, res); got != wantResult {
					t.Errorf("result\n got %s\nwant %s", got, wantResult)
				}
				if got := strings.Join(rec.lines(), "\n"); got != strings.Join(wantLines, "\n") {
					t.Errorf("lines\n got %s\nwant %s", got, strings.Join(wantLines, "\n"))
				}
			})
		}
	}
}

// stdinOf is a hook that keeps its input in $T/<name> before replying.
func stdinOf(name, stdout string) Entry {
	return hook(`cat > "$T/` + name + `"; printf '%s' '` + stdout + `'`)
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(string(b), "\n")
}

func TestPreGenerationChain(t *testing.T) {
	eng, dir := testEngine(t, configOf(PreGeneration,
		reply(`{"prompt":"A","context":"one"}`),
		stdinOf("2", `{"prompt":"B","context":"  "}`),
		stdinOf("3", `{"context":"thrée"}`)))
	var rec recorder
	res := eng.PreGeneration(context.Background(), "q & <a>", rec.observe)
	if got, want := plainJSON(t, res), `{"prompt":"B","contexts":["one","thrée"]}`; got != want {
		t.Errorf("result %s, want %s", got, want)
	}
	if got, want := readFile(t, dir, "2"), `{"event":"preGeneration","cwd":"`+dir+`","model":"echo/test","prompt":"A"}`; got != want {
		t.Errorf("second hook read %s, want %s", got, want)
	}
	if got, want := readFile(t, dir, "3"), `{"event":"preGeneration","cwd":"`+dir+`","model":"echo/test","prompt":"B"}`; got != want {
		t.Errorf("third hook read %s, want %s", got, want)
	}
	want := []string{
		`🪝 1. preGeneration · printf '%s' '{"prompt":"A","context":"one"}' → prompt replaced + context (3 chars)`,
		`🪝 2. preGeneration · cat > "$T/2"; printf '%s' '{"prompt":"B","context":"  "}' → prompt replaced`,
		`🪝 3. preGeneration · cat > "$T/3"; printf '%s' '{"context":"thrée"}' → context (5 chars)`,
	}
	if got := rec.lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n got %q\nwant %q", got, want)
	}
}

func TestPreGenerationStop(t *testing.T) {
	tests := []struct {
		stdout, marker, response string
	}{
		{`{"action":"stop","reason":"secrets"}`, "[prompt blocked by a hook: secrets]", "⛔ This request was blocked by a hook: secrets"},
		{`{"action":"stop","reason":"secrets","response":"  "}`, "[prompt blocked by a hook: secrets]", "⛔ This request was blocked by a hook: secrets"},
		{`{"action":"stop","response":"Not today."}`, "[prompt blocked by a hook]", "Not today."},
		{`{"action":"stop","reason":" "}`, "[prompt blocked by a hook]", "⛔ This request was blocked by a hook"},
	}
	for _, tt := range tests {
		eng, dir := testEngine(t, configOf(PreGeneration, reply(tt.stdout), hook(`touch "$T/ran"`)))
		res := eng.PreGeneration(context.Background(), "q", nil)
		if !res.Stop || res.Marker() != tt.marker || res.Response != tt.response {
			t.Errorf("%s: stop %v marker %q response %q, want %q %q", tt.stdout, res.Stop, res.Marker(), res.Response, tt.marker, tt.response)
		}
		if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
			t.Errorf("%s: the hook after stop ran", tt.stdout)
		}
	}
}

func TestPreToolCallChain(t *testing.T) {
	tests := []struct {
		name       string
		asked      int
		entries    []Entry
		result     string
		lines      []string
		secondRead string // the input of the hook writing $T/2
	}{
		{
			name:    "input passed on, allow kept",
			entries: []Entry{reply(`{"action":"allow","input":{"command":"ls -a"}}`), stdinOf("2", `{}`)},
			result:  `{"input":{"command":"ls -a"},"inputReplaced":true,"allow":true}`,
			lines: []string{
				`🪝 1. preToolCall [bash] · printf '%s' '{"action":"allow","input":{"command":"ls -a"}}' → allow + input replaced`,
				`🪝 2. preToolCall [bash] · cat > "$T/2"; printf '%s' '{}' → continue`,
			},
			secondRead: `"tool":{"id":"call_1","name":"bash","input":{"command":"ls -a"}}}`,
		},
		{
			name:    "a later deny wins over allow",
			entries: []Entry{reply(`{"action":"allow"}`), reply(`{"action":"deny"}`), hook(`touch "$T/3"`)},
			result:  `{"input":{"command":"ls"},"deny":true,"reason":"no reason given"}`,
			lines: []string{
				`🪝 1. preToolCall [bash] · printf '%s' '{"action":"allow"}' → allow`,
				`🪝 2. preToolCall [bash] · printf '%s' '{"action":"deny"}' → deny`,
			},
		},
		{
			name:    "allow ignored in an asked agent",
			asked:   1,
			entries: []Entry{stdinOf("2", `{"action":"allow","input":{"command":"pwd"}}`)},
			result:  `{"input":{"command":"pwd"},"inputReplaced":true}`,
			lines: []string{
				`🪝 1. preToolCall [bash] · cat > "$T/2"; printf '%s' '{"action":"allow","input":{"command":"pwd"}}' → allow + input replaced`,
			},
			secondRead: `"tool":{"id":"call_1","name":"bash","input":{"command":"ls"}},"asked":{"depth":1}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng, dir := testEngine(t, configOf(PreToolCall, tt.entries...))
			eng.opts.AskedDepth = tt.asked
			var rec recorder
			res := eng.PreToolCall(context.Background(), *sampleInput(PreToolCall).Tool, rec.observe)
			if got := plainJSON(t, res); got != tt.result {
				t.Errorf("result\n got %s\nwant %s", got, tt.result)
			}
			if got := rec.lines(); strings.Join(got, "\n") != strings.Join(tt.lines, "\n") {
				t.Errorf("lines\n got %q\nwant %q", got, tt.lines)
			}
			if tt.secondRead != "" {
				if got := readFile(t, dir, "2"); !strings.HasSuffix(got, tt.secondRead) {
					t.Errorf("the hook read %s, want it to end with %s", got, tt.secondRead)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "3")); err == nil {
				t.Error("a hook after deny ran")
			}
		})
	}
}

func TestPreAskChain(t *testing.T) {
	eng, dir := testEngine(t, configOf(PreAsk,
		reply(`{"prompt":"Q2","transcript":"","context":"c1"}`),
		stdinOf("2", `{"transcript":"user: new","context":"c2"}`),
		matching("^other$", hook(`touch "$T/other"`)),
		stdinOf("4", `{"action":"deny","reason":"too late"}`)))
	var rec recorder
	res := eng.PreAsk(context.Background(), *sampleInput(PreAsk).Ask, rec.observe)
	want := `{"ask":{` + askJSON + `,"prompt":"Q2","transcript":"user: new"},"contexts":["c1","c2"],"deny":true,"reason":"too late"}`
	if got := plainJSON(t, res); got != want {
		t.Errorf("result\n got %s\nwant %s", got, want)
	}
	// An empty transcript is none: the key goes.
	if got, want := readFile(t, dir, "2"), `"ask":{`+askJSON+`,"prompt":"Q2"}}`; !strings.HasSuffix(got, want) {
		t.Errorf("second hook read %s, want it to end with %s", got, want)
	}
	if got, want := readFile(t, dir, "4"), `"ask":{`+askJSON+`,"prompt":"Q2","transcript":"user: new"}}`; !strings.HasSuffix(got, want) {
		t.Errorf("fourth hook read %s, want it to end with %s", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "other")); err == nil {
		t.Error("a hook for another agent ran")
	}
	if len(rec.runs) != 3 || rec.runs[2].Decision != "deny" || rec.runs[2].Subject != "expert" {
		t.Errorf("runs %+v", rec.runs)
	}
}

func TestPostAskChain(t *testing.T) {
	eng, dir := testEngine(t, configOf(PostAsk,
		reply(`{"answer":"first","context":"c1"}`),
		stdinOf("2", `{"context":"c2"}`)))
	res := eng.PostAsk(context.Background(), *sampleInput(PostAsk).Ask, "An inode", "broken pipe", 1500*time.Millisecond, nil)
	if got, want := plainJSON(t, res), `{"answer":"first","replaced":true,"contexts":["c1","c2"]}`; got != want {
		t.Errorf("result %s, want %s", got, want)
	}
	want := `{"event":"postAsk","cwd":"` + dir + `","model":"echo/test","ask":{` + askJSON + `,"prompt":"Q","transcript":"user: hi"},"answer":"first","error":"broken pipe","durationMs":1500}`
	if got := readFile(t, dir, "2"); got != want {
		t.Errorf("second hook read\n %s\nwant %s", got, want)
	}
}

func TestPostToolCallChain(t *testing.T) {
	eng, dir := testEngine(t, configOf(PostToolCall,
		matching("bash", stdinOf("1", `{"context":"first"}`)),
		matching("^bash$", reply(`{"context":"never"}`)),
		reply(`{"action":"error"}`),
		reply(`{"context":"last"}`)))
	if !eng.Matching(PostToolCall, "my_bash") || !eng.Has(PostToolCall) || eng.Has(PreToolCall) || eng.Matching(PreToolCall, "bash") {
		t.Error("Has or Matching wrong")
	}
	var rec recorder
	contexts := eng.PostToolCall(context.Background(), ToolCall{ID: "c", Name: "my_bash", Input: []byte(`{}`)}, "out", rec.observe)
	if got, want := strings.Join(contexts, "|"), "first|last"; got != want {
		t.Errorf("contexts %q, want %q", got, want)
	}
	if got, want := readFile(t, dir, "1"), `{"event":"postToolCall","cwd":"`+dir+`","model":"echo/test","tool":{"id":"c","name":"my_bash","input":{}},"output":"out"}`; got != want {
		t.Errorf("first hook read %s, want %s", got, want)
	}
	want := []string{
		`🪝 1. postToolCall [my_bash] · cat > "$T/1"; printf '%s' '{"context":"first"}' → context (5 chars)`,
		`🪝 2. postToolCall [my_bash] · printf '%s' '{"action":"error"}' → failed`,
		"🪝 postToolCall hook `printf '%s' '{\"action\":\"error\"}'`: the hook reported an error",
		`🪝 3. postToolCall [my_bash] · printf '%s' '{"context":"last"}' → context (4 chars)`,
	}
	if got := rec.lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n got %q\nwant %q", got, want)
	}
}

func TestCancelledBeforeTheChain(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, ev := range []Event{PreGeneration, PreToolCall, PostToolCall, PreAsk} {
		eng, _ := testEngine(t, configOf(ev, reply(`{}`)))
		var rec recorder
		if _, err := eng.Simulate(ctx, ev, sampleInput(ev), "", rec.observe); err != nil {
			t.Fatal(err)
		}
		if len(rec.runs) != 0 {
			t.Errorf("%s: %d runs after the cancellation, want 0", ev, len(rec.runs))
		}
	}
}

func TestPostEventsSurviveCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()

	eng, dir := testEngine(t, configOf(PostGeneration, stdinOf("in", `{}`), hook(`sleep 0.2; touch "$T/second"`)))
	var rec recorder
	eng.PostGeneration(ctx, "[prompt blocked by a hook: r]", "", "cancelled", rec.observe)
	if got, want := readFile(t, dir, "in"), `{"event":"postGeneration","cwd":"`+dir+`","model":"echo/test","prompt":"[prompt blocked by a hook: r]","error":"cancelled"}`; got != want {
		t.Errorf("read %s, want %s", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "second")); err != nil || len(rec.runs) != 2 || rec.runs[1].Failure != "" {
		t.Errorf("postGeneration did not run to the end: %v %+v", err, rec.runs)
	}

	eng, _ = testEngine(t, configOf(PostAsk, hook(`sleep 0.2; printf '{"answer":"late"}'`)))
	res := eng.PostAsk(ctx, *sampleInput(PostAsk).Ask, "", "cancelled", 0, nil)
	if !res.Replaced || res.Answer != "late" {
		t.Errorf("postAsk result %+v, want the answer replaced", res)
	}

	// Still bounded by their timeout.
	e := hook("sleep 60")
	e.Timeout = 200 * time.Millisecond
	eng, _ = testEngine(t, configOf(PostAsk, e))
	rec = recorder{}
	mustend.Within(t, 10*time.Second, "the hook run", func() { eng.PostAsk(ctx, *sampleInput(PostAsk).Ask, "", "", 0, rec.observe) })
	if rec.runs[0].Failure != "timed out after 200ms" {
		t.Errorf("failure %q", rec.runs[0].Failure)
	}
}

func TestConcurrentChains(t *testing.T) {
	// Each hook answers with an input naming the tool it read.
	cmd := `sleep 0.1; sed 's/.*"name":"\([a-z_0-9]*\)".*/{"input":{"tool":"\1"}}/'`
	eng, _ := testEngine(t, configOf(PreToolCall, hook(cmd), hook(cmd)))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			name := fmt.Sprintf("tool_%d", i)
			var rec recorder
			res := eng.PreToolCall(context.Background(), ToolCall{ID: name, Name: name, Input: []byte(`{}`)}, rec.observe)
			if got, want := string(res.Input), `{"tool":"`+name+`"}`; got != want || len(rec.runs) != 2 {
				t.Errorf("%s: input %s, %d runs; want %s, 2 runs", name, got, len(rec.runs), want)
			}
		})
	}
	wg.Wait()
}

func TestNoHooks(t *testing.T) {
	for _, eng := range []*Engine{NewEngine(nil, Options{}), NewEngine(&Config{}, Options{}), nil} {
		ctx := context.Background()
		if r := eng.PreGeneration(ctx, "q", nil); r.Prompt != "q" || r.Stop || r.Contexts != nil {
			t.Errorf("PreGeneration %+v", r)
		}
		if r := eng.PreToolCall(ctx, ToolCall{Name: "bash", Input: []byte(`{"a":1}`)}, nil); string(r.Input) != `{"a":1}` || r.Allow || r.Deny {
			t.Errorf("PreToolCall %+v", r)
		}
		if c := eng.PostToolCall(ctx, ToolCall{Name: "bash"}, "o", nil); c != nil {
			t.Errorf("PostToolCall %q", c)
		}
		eng.PostGeneration(ctx, "q", "a", "", nil)
		if r := eng.PreAsk(ctx, handoff.Ask{Agent: "x", Prompt: "p"}, nil); r.Ask.Prompt != "p" || r.Deny {
			t.Errorf("PreAsk %+v", r)
		}
		if r := eng.PostAsk(ctx, handoff.Ask{Agent: "x"}, "a", "", time.Second, nil); r.Answer != "a" || r.Replaced {
			t.Errorf("PostAsk %+v", r)
		}
		for _, ev := range Events {
			if eng.Has(ev) || eng.Matching(ev, "bash") {
				t.Errorf("Has or Matching %s", ev)
			}
		}
	}
}
