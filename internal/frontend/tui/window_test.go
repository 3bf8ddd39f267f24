package tui

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// fakeSession runs prompt as its turns.
type fakeSession struct {
	prompt  func(ctx context.Context, k sink, text string)
	k       sink
	cleared bool
	// choices are what /resume alone lists; resumed and shells what
	// /resume and "!" were given.
	choices []orchestrator.SavedSession
	resumed []string
	shells  []string
}

func (f *fakeSession) PromptTyped(ctx context.Context, text string) error {
	f.prompt(ctx, f.k, text)
	return nil
}
func (f *fakeSession) Clear()                               { f.cleared = true }
func (f *fakeSession) MCPServers() []orchestrator.MCPStatus { return nil }
func (f *fakeSession) Commands() []orchestrator.Command     { return nil }
func (f *fakeSession) Warnings() []string                   { return nil }
func (f *fakeSession) SavedSessions() (string, error)       { return "", nil }
func (f *fakeSession) ResumeSaved(id string) (string, error) {
	f.resumed = append(f.resumed, id)
	return "resumed session " + id, nil
}
func (f *fakeSession) SavedChoices() ([]orchestrator.SavedSession, error) {
	return f.choices, nil
}
func (f *fakeSession) RenameSaved(string) (string, error) { return "", nil }
func (f *fakeSession) Model() string                      { return "fake/model" }
func (f *fakeSession) SwitchModel(ref string) (string, error) {
	return "model: " + ref, nil
}
func (f *fakeSession) Shell(ctx context.Context, command string) error {
	f.shells = append(f.shells, command)
	return nil
}
func (f *fakeSession) Close() error { return nil }

// testWindow is a window whose loop the test runs by hand: it types keys
// and hands over the session's messages itself, so that every step is in
// order.
type testWindow struct {
	t *testing.T
	*window
}

func newTestWindow(t *testing.T, prompt func(ctx context.Context, k sink, text string)) *testWindow {
	msgs, done := make(chan any, 256), make(chan struct{})
	t.Cleanup(func() { close(done) })
	w := newWindow(context.Background(), msgs, done, true, false)
	w.s = &fakeSession{prompt: prompt, k: sink{msgs: msgs, done: done}}
	w.model = "script/x.yaml"
	w.scr.resize(60, 12)
	return &testWindow{t: t, window: w}
}

// typeKeys decodes s as terminal input and handles each key.
func (tw *testWindow) typeKeys(s string) {
	for _, k := range tw.dec.feed([]byte(s)) {
		tw.key(k)
	}
}

// handleUntil hands the session's messages to the window until one that
// stop accepts has been handled.
func (tw *testWindow) handleUntil(what string, stop func(any) bool) {
	tw.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case m := <-tw.msgs:
			tw.message(m)
			if stop(m) {
				return
			}
		case <-timeout:
			tw.t.Fatalf("waited in vain for %s", what)
		}
	}
}

func isDone(m any) bool { _, ok := m.(turnDone); return ok }

func isAsk(m any) bool { _, ok := m.(*consentAsk); return ok }

func (tw *testWindow) lines() []string {
	var out []string
	for _, l := range tw.tr.lines {
		out = append(out, l.text)
	}
	return out
}

func TestWindowConsent(t *testing.T) {
	var answers []orchestrator.ConsentAnswer
	bash := &orchestrator.AlwaysOffer{For: "bash"}
	goTest := &orchestrator.AlwaysOffer{For: `"go test"`, SaveTo: "agent.yaml"}
	tw := newTestWindow(t, func(ctx context.Context, k sink, text string) {
		for _, q := range []struct {
			cmd    string
			always *orchestrator.AlwaysOffer
		}{{"ls", bash}, {"rm x", bash}, {"go test ./...", goTest}, {"$X", nil}, {"pwd", bash}} {
			answers = append(answers, k.Consent(ctx, orchestrator.ConsentRequest{Tool: "bash", Subject: q.cmd, Always: q.always}))
		}
		k.Emit(orchestrator.TurnEnded{})
	})
	tw.typeKeys("go\r")
	if !tw.running {
		t.Fatal("no turn runs after Enter")
	}
	tw.handleUntil("first question", isAsk)
	if got := tw.status(); got != " script/x.yaml · allow this call? y once · n no · a always · v never · Esc no" {
		t.Errorf("status while asking: %q", got)
	}
	tw.typeKeys("q") // not an answer: nothing happens
	tw.typeKeys("s") // not offered: nothing happens
	tw.typeKeys("Y")
	tw.handleUntil("second question", isAsk)
	tw.typeKeys("\x1b")
	tw.handleUntil("third question", isAsk)
	if got := tw.status(); got != " script/x.yaml · allow this call? y once · n no · a always · s always, saved · v never · Esc no" {
		t.Errorf("status while asking with a save: %q", got)
	}
	tw.typeKeys("s")
	tw.handleUntil("fourth question", isAsk)
	tw.typeKeys("a") // not offered: nothing happens
	tw.typeKeys("n")
	tw.handleUntil("fifth question", isAsk)
	tw.typeKeys("v")
	tw.handleUntil("the end of the turn", isDone)

	want := []orchestrator.ConsentAnswer{orchestrator.AllowOnce, orchestrator.RejectOnce, orchestrator.AllowAlwaysSaved, orchestrator.RejectOnce, orchestrator.RejectAlways}
	if !slices.Equal(answers, want) {
		t.Errorf("answers %v, want %v", answers, want)
	}
	wantLines := []string{
		"› go",
		"Allow bash: ls? [y] once [n] no [a] always for bash [v] never → yes, once",
		"Allow bash: rm x? [y] once [n] no [a] always for bash [v] never → no",
		`Allow bash: go test ./...? [y] once [n] no [a] always for "go test" [s] saved to agent.yaml [v] never → always for "go test", saved to agent.yaml`,
		"Allow bash: $X? [y] once [n] no [v] never → no",
		"Allow bash: pwd? [y] once [n] no [a] always for bash [v] never → never for bash",
		"⚙ 0 command(s)",
	}
	if got := tw.lines(); !slices.Equal(got, wantLines) {
		t.Errorf("transcript\n got %q\nwant %q", got, wantLines)
	}
	if tw.running || !tw.ed.empty() {
		t.Errorf("after the turn: running %v, input %q", tw.running, tw.ed.String())
	}
}

// cancellable is a turn that asks, waits to be cancelled, and ends as the
// session ends a cancelled turn.
func cancellable(ctx context.Context, k sink, text string) {
	k.Emit(orchestrator.Text{Text: "working"})
	if a := k.Consent(ctx, orchestrator.ConsentRequest{Tool: "bash", Subject: "sleep 100", Always: &orchestrator.AlwaysOffer{For: "bash"}}); a != orchestrator.ConsentUnavailable {
		panic(fmt.Sprintf("answer %v, want ConsentUnavailable for a cancelled turn", a))
	}
	<-ctx.Done()
	k.Emit(orchestrator.TurnEnded{Err: errors.New("cancelled")})
}

func TestWindowCancel(t *testing.T) {
	// Ctrl-C while a consent question is shown cancels the turn, and the
	// question with it.
	tw := newTestWindow(t, cancellable)
	tw.typeKeys("slow\r")
	tw.handleUntil("the question", isAsk)
	tw.typeKeys("\x03")
	if !tw.cancelled {
		t.Fatal("Ctrl-C did not cancel the turn")
	}
	tw.handleUntil("the end of the turn", isDone)
	want := []string{
		"› slow",
		"🤖 working",
		"Allow bash: sleep 100? [y] once [n] no [a] always for bash [v] never → cancelled",
		"mm: cancelled",
		"⚙ 0 command(s)",
	}
	if got := tw.lines(); !slices.Equal(got, want) {
		t.Errorf("transcript\n got %q\nwant %q", got, want)
	}
	if tw.running || tw.quit || len(tw.consents) != 0 {
		t.Errorf("after the turn: running %v, quit %v, questions %d", tw.running, tw.quit, len(tw.consents))
	}
}

func TestWindowAbort(t *testing.T) {
	tw := newTestWindow(t, func(ctx context.Context, k sink, text string) {
		<-ctx.Done()
		k.Emit(orchestrator.TurnEnded{Err: errors.New("cancelled")})
	})
	tw.typeKeys("slow\r/abort\r")
	if !tw.cancelled {
		t.Fatal("/abort did not cancel the turn")
	}
	tw.handleUntil("the end of the turn", isDone)
	want := []string{"› slow", "mm: cancelled", "⚙ 0 command(s)"}
	if got := tw.lines(); !slices.Equal(got, want) {
		t.Errorf("transcript\n got %q\nwant %q", got, want)
	}
}

// TestWindowEscapeCancels: Esc cancels the running turn; a line sent
// while it runs is queued (the status line counts it) and sent once it
// ends, as the line mode does.
func TestWindowEscapeCancels(t *testing.T) {
	var asked []string
	tw := newTestWindow(t, func(ctx context.Context, k sink, text string) {
		asked = append(asked, text)
		<-ctx.Done()
		k.Emit(orchestrator.TurnEnded{Err: errors.New("cancelled")})
	})
	tw.typeKeys("slow\r")
	tw.typeKeys("next question") // typed while the turn runs
	tw.typeKeys("\r")
	if got := tw.status(); got != " script/x.yaml · running · 1 queued · Esc cancels" || !tw.ed.empty() {
		t.Errorf("status after Enter during a turn: %q, input %q", got, tw.ed.String())
	}
	tw.typeKeys("\x1b")
	tw.handleUntil("the end of the turn", isDone)
	if got := tw.tr.lines[len(tw.tr.lines)-1].text; got != "› next question" || !tw.running {
		t.Errorf("after the turn: last line %q, running %v", got, tw.running)
	}
	tw.typeKeys("\x1b")
	tw.handleUntil("the end of the turn", isDone)
	if !slices.Equal(asked, []string{"slow", "next question"}) {
		t.Errorf("asked %q", asked)
	}
}

func TestWindowLeave(t *testing.T) {
	tests := []struct {
		name     string
		keys     string
		during   bool // the keys are typed while a turn runs
		wantExit int
	}{
		{"/exit", "/exit\r", false, 0},
		{"Ctrl-D", "\x04", false, 0},
		{"Ctrl-C twice on an empty line", "\x03\x03", false, 0},
		{"/exit during a turn waits for it", "/exit\r", true, 0},
		{"Ctrl-D during a turn waits for it", "\x04", true, 0},
		{"a second Ctrl-C leaves at once", "\x03\x03", true, 130},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tw := newTestWindow(t, func(ctx context.Context, k sink, text string) {
				<-ctx.Done()
				k.Emit(orchestrator.TurnEnded{Err: errors.New("cancelled")})
			})
			if tt.during {
				tw.typeKeys("slow\r")
			}
			tw.typeKeys(tt.keys)
			if tt.during && tt.wantExit == 0 {
				if tw.quit {
					t.Fatal("left before the turn ended")
				}
				tw.handleUntil("the end of the turn", isDone)
			}
			if !tw.quit || tw.exit != tt.wantExit {
				t.Errorf("quit %v, exit %d; want to leave with %d", tw.quit, tw.exit, tt.wantExit)
			}
		})
	}
}

func TestWindowNothingAfterLeaving(t *testing.T) {
	tw := newTestWindow(t, func(ctx context.Context, k sink, text string) {
		t.Errorf("a turn started after the person left: %q", text)
	})
	tw.typeKeys("\x04hello\r")
	if !tw.quit || tw.running {
		t.Errorf("quit %v, running %v; want to leave without a turn", tw.quit, tw.running)
	}
}

func TestWindowCtrlCClearsTheLine(t *testing.T) {
	tw := newTestWindow(t, nil)
	tw.typeKeys("half a question\x03")
	if tw.quit || !tw.ed.empty() {
		t.Errorf("Ctrl-C on a line: quit %v, input %q; want the line cleared", tw.quit, tw.ed.String())
	}
	// One Ctrl-C on an empty line says how to leave; a key between two
	// makes the next one the first again.
	tw.typeKeys("\x03")
	if got := tw.status(); tw.quit || got != " script/x.yaml · Ctrl-C again leaves (so do Ctrl-D and /exit)" {
		t.Errorf("Ctrl-C on an empty line: quit %v, status %q", tw.quit, got)
	}
	tw.typeKeys("x\x7f\x03")
	if tw.quit {
		t.Error("left on a Ctrl-C after other keys")
	}
	tw.typeKeys("\x03")
	if !tw.quit || tw.exit != 0 {
		t.Errorf("a second Ctrl-C: quit %v, exit %d", tw.quit, tw.exit)
	}
}

func TestWindowCommands(t *testing.T) {
	tw := newTestWindow(t, nil)
	tw.typeKeys("/clear\r/mcp\r/abort\r")
	want := []string{
		"(conversation cleared)",
		"(no MCP servers: add them under mcpServers: in the configuration)",
		"(no turn is running)",
	}
	if got := tw.lines(); !slices.Equal(got, want) {
		t.Errorf("transcript\n got %q\nwant %q", got, want)
	}
	if !tw.s.(*fakeSession).cleared {
		t.Error("/clear did not clear the session")
	}
	tw.typeKeys("/help\r")
	if got := tw.tr.lines[3].text; got != "Type a question and press Enter. Commands:" {
		t.Errorf("/help starts with %q", got)
	}
}

// TestWindowUnknownCommand: a slash command the window does not know is
// refused with the known ones, not sent to the model; a path is a question.
func TestWindowUnknownCommand(t *testing.T) {
	var asked []string
	tw := newTestWindow(t, func(ctx context.Context, k sink, text string) { asked = append(asked, text) })
	tw.typeKeys("/hlep\r")
	// The known commands are those the window offers, whatever they are.
	want := []string{"› /hlep", "mm: " + frontend.UnknownCommand("/hlep", commands().Words(), nil)}
	if got := tw.lines(); !slices.Equal(got, want) || !strings.Contains(want[1], "/clear, /compact, /model, /sessions, /resume, /rename, /abort, /help, /exit) (did you mean \"/help\"?)") {
		t.Errorf("transcript\n got %q\nwant %q", got, want)
	}
	if tw.running || len(asked) > 0 {
		t.Errorf("/hlep started a turn (asked %q)", asked)
	}
	tw.typeKeys("/etc/hosts?\r")
	tw.handleUntil("the end of the turn", isDone)
	if !slices.Equal(asked, []string{"/etc/hosts?"}) {
		t.Errorf("the model was asked %q, want the path as a question", asked)
	}
}

func TestWindowTurnPanic(t *testing.T) {
	tw := newTestWindow(t, func(ctx context.Context, k sink, text string) { panic("boom") })
	tw.typeKeys("hi\r")
	tw.handleUntil("the end of the turn", isDone)
	if tw.panicked == nil || tw.panicked.value != "boom" || !tw.quit {
		t.Errorf("panicked %v, quit %v; want the panic kept and the window ending", tw.panicked, tw.quit)
	}
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestWindowFrame(t *testing.T) {
	tw := newTestWindow(t, nil)
	tw.banner = "mm v0.1.0 | config: agent.yaml | model: script/x.yaml | yolo: off"
	tw.scr.resize(30, 8)
	for i := 1; i <= 6; i++ {
		tw.tr.notice(fmt.Sprintf("line %d", i))
	}
	tw.typeKeys("abc\x1b[D")

	strip := func(f frame) []string {
		var rows []string
		for _, r := range f.rows {
			rows = append(rows, strings.TrimRight(sgr.ReplaceAllString(r, ""), " "))
		}
		return rows
	}
	f := tw.frame()
	want := []string{
		"mm v0.1.0 | config: agent.yam…",
		"line 2", "line 3", "line 4", "line 5", "line 6",
		" script/x.yaml · idle · Enter…",
		"› abc",
	}
	if got := strip(f); !slices.Equal(got, want) {
		t.Errorf("frame\n got %q\nwant %q", got, want)
	}
	if f.cx != 4 || f.cy != 7 {
		t.Errorf("cursor at %d,%d; want 4,7", f.cx, f.cy)
	}

	// PgUp moves the view up by all but one row, but only one row is
	// above it: the view stops at the top.
	tw.typeKeys("\x1b[5~")
	want = []string{
		"mm v0.1.0 | config: agent.yam…",
		"line 1", "line 2", "line 3", "line 4", "line 5",
		" ↑1 rows, PgDn · script/x.yam…",
		"› abc",
	}
	if got := strip(tw.frame()); !slices.Equal(got, want) {
		t.Errorf("scrolled frame\n got %q\nwant %q", got, want)
	}
	tw.tr.notice("line 7") // arriving below: the view stays on the rows read
	if got := strip(tw.frame()); !slices.Equal(got[1:6], want[1:6]) {
		t.Errorf("view moved while scrolled: %q", got)
	}
	tw.typeKeys("\x1b[6~")
	if got := strip(tw.frame()); got[5] != "line 7" || tw.scroll != 0 {
		t.Errorf("PgDn: last transcript row %q, scroll %d", got[5], tw.scroll)
	}
}

// TestWindowHelp: /help shows the window's list of the registry's
// commands, with its own keys.
func TestWindowHelp(t *testing.T) {
	tw := newTestWindow(t, nil)
	tw.typeKeys("/help\r")
	want := strings.Split(`Type a question and press Enter. Commands:
  /ask <agent> <question>              ask another agent
  /ask-<agent> <question>              the same
  /ask-with-context-<agent> <question> ask, sending this conversation along
  /mcp                                 list the MCP servers and their tools
  /clear                               forget the conversation
  /compact                             compress the conversation now, to fit the model's window
  /model <provider>/<model>            switch the model for the rest of the session (alone: show it)
  /sessions                            list this folder's saved sessions
  /resume [<id or name>]               go on with a saved session (alone: pick it from a list)
  /rename <name>                       name this session: mm --resume <name> goes on with it
  /abort                               cancel the running turn (or Esc, or Ctrl-C)
  /help                                this list
  /exit, /quit                         leave (or Ctrl-D, or Ctrl-C twice on an empty line)
Keys: ←/→, Home/End, Backspace/Delete, Ctrl-U, Ctrl-K and Ctrl-W edit the line;
↑/↓ walk the lines sent before; PgUp/PgDn scroll; Ctrl-L redraws. A line
sent while a turn runs is sent once it ends. !<command> runs a shell command
for you (in the sandbox); the model reads its output with your next question.
A consent question is answered by one key: y, n, a or v; Esc is no.`, "\n")
	if got := tw.lines(); !slices.Equal(got, want) {
		t.Errorf("transcript\n got %q\nwant %q", got, want)
	}
}

// TestWindowPick: /resume alone opens the list of the folder's sessions
// over the transcript; ↑/↓ choose, Enter resumes the one chosen; Esc
// closes the list resuming none.
func TestWindowPick(t *testing.T) {
	tw := newTestWindow(t, nil)
	f := tw.s.(*fakeSession)
	f.choices = []orchestrator.SavedSession{
		{ID: "1m8rp0pc0qje", Age: "3 h ago", Turns: 4, First: "fix the build"},
		{ID: "1m8rp48m14s5", Name: "docs", Age: "2 days ago", Turns: 1, First: "write the docs"},
	}
	tw.typeKeys("/resume\r")
	var rows []string
	for _, r := range tw.frame().rows {
		rows = append(rows, strings.TrimRight(sgr.ReplaceAllString(r, ""), " "))
	}
	want := []string{"Saved sessions of this folder, the latest first:", "› 3 h ago · 4 turns · fix the build", "  docs · 2 days ago · 1 turn · write the docs"}
	if !slices.Equal(rows[len(rows)-5:len(rows)-2], want) || tw.status() != " script/x.yaml · "+pickStatus {
		t.Errorf("the list:\n%q", rows)
	}
	tw.typeKeys("\x1b[B\x1b[B\r") // ↓ twice: the last one stays chosen
	if tw.pick != nil || !slices.Equal(f.resumed, []string{"1m8rp48m14s5"}) {
		t.Errorf("resumed %q, list open %v", f.resumed, tw.pick != nil)
	}
	tw.typeKeys("/resume\r\x1b")
	if got := tw.lines(); tw.pick != nil || got[len(got)-1] != "(no session resumed)" || len(f.resumed) != 1 {
		t.Errorf("after Esc: %q, resumed %q", got, f.resumed)
	}
	f.choices = nil
	tw.typeKeys("/resume\r")
	if got := tw.lines(); tw.pick != nil || got[len(got)-1] != frontend.NoSessions {
		t.Errorf("no sessions: %q", got)
	}
}

// TestWindowShell: a line starting with "!" runs a shell command for the
// person as a turn runs, never as a question.
func TestWindowShell(t *testing.T) {
	tw := newTestWindow(t, func(ctx context.Context, k sink, text string) {
		t.Errorf("a question was asked: %q", text)
	})
	tw.typeKeys("!git status\r")
	tw.handleUntil("the end of the command", isDone)
	if f := tw.s.(*fakeSession); !slices.Equal(f.shells, []string{"git status"}) {
		t.Errorf("shells %q", f.shells)
	}
	if got := tw.lines(); !slices.Equal(got, []string{"› !git status"}) {
		t.Errorf("transcript %q", got)
	}
}
