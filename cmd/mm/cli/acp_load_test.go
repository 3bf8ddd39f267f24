package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// askedAgent is a folder whose agent asks expert, an agent that answers
// with every question it was asked in its session.
var askedAgent = map[string]string{
	"agent.yaml":    "model: script/main.yaml\nmmConfigs:\n  expert: expert.yaml\n",
	"main.yaml":     "rules:\n  - say: ok\n",
	"expert.yaml":   "model: script/expert.s.yaml\n",
	"expert.s.yaml": "rules:\n  - say: \"I was asked:\\n{{questions}}\"\n",
}

// editorTurn is what one prompt of an editor showed: the answer and the
// thoughts (asked agents' text, notices).
type editorTurn struct {
	answer, thoughts string
	err              string
}

func (e *rawEditor) turn(session, text string) editorTurn {
	e.t.Helper()
	var answer, thoughts strings.Builder
	r := e.until(e.prompt(session, text), func(m rawMessage) {
		answer.WriteString(textOf(m))
		thoughts.WriteString(thoughtOf(m))
	})
	t := editorTurn{answer: answer.String(), thoughts: thoughts.String()}
	if r.Error != nil {
		t.err = r.Error.Message
	}
	return t
}

// stop ends the editor: mm -acp exits at the end of its input.
func (e *rawEditor) stop() {
	e.t.Helper()
	e.in.Close()
	if err := e.cmd.Wait(); err != nil {
		e.t.Fatalf("mm -acp: %v", err)
	}
}

// load loads session id in cwd and returns the updates it replayed, by
// kind.
func (e *rawEditor) load(id, cwd string) []string {
	e.t.Helper()
	var kinds []string
	r := e.until(e.send("session/load", map[string]any{"sessionId": id, "cwd": cwd, "mcpServers": []any{}}, true), func(m rawMessage) {
		var p struct {
			Update struct {
				Kind string `json:"sessionUpdate"`
			} `json:"update"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			kinds = append(kinds, p.Update.Kind)
		}
	})
	if r.Error != nil {
		e.t.Fatalf("session/load %s: %s", id, r.Error.Message)
	}
	return kinds
}

// TestACPLoadResumesAskedAgent: a session asks expert twice; mm exits. The
// next mm loads the session, and expert, asked again, goes on with its own
// session: it answers with all three questions. Its replayed history is
// not part of the answer.
func TestACPLoadResumesAskedAgent(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, askedAgent)
	env := []string{"XDG_STATE_HOME=" + filepath.Join(dir, "state")}

	e := startRawEditorEnv(t, dir, env, "-acp")
	id := e.session(dir)
	for _, tt := range []struct{ q, want string }{
		{"first", "I was asked:\nfirst"},
		{"second", "I was asked:\nfirst\n\nsecond"},
	} {
		if got := e.turn(id, "/ask-expert "+tt.q); got.answer != tt.want || got.err != "" {
			t.Fatalf("/ask-expert %s: %+v, want the answer %q", tt.q, got, tt.want)
		}
	}
	e.stop()

	e = startRawEditorEnv(t, dir, env, "-acp")
	e.until(e.send("initialize", map[string]any{"protocolVersion": 1}, true), nil)
	kinds := e.load(id, dir)
	if want := "user_message_chunk agent_message_chunk user_message_chunk agent_message_chunk available_commands_update"; strings.Join(kinds, " ") != want {
		t.Errorf("session/load replayed %q, want %q", kinds, want)
	}
	got := e.turn(id, "/ask-expert third")
	if want := "I was asked:\nfirst\n\nsecond\n\nthird"; got.answer != want || got.err != "" {
		t.Errorf("after the load, /ask-expert third: %+v, want the answer %q", got, want)
	}
	if strings.Contains(got.thoughts, "could not go on") {
		t.Errorf("a warning: %q", got.thoughts)
	}
	e.stop()

	// The asked agent's sessions are apart from the person's.
	for folder, want := range map[string]int{"sessions": 1, filepath.Join("sessions", "asked"): 1} {
		files, _ := filepath.Glob(filepath.Join(dir, "state", "mm", folder, "*.jsonl"))
		if len(files) != want {
			t.Errorf("%s holds %d sessions (%q), want %d", folder, len(files), files, want)
		}
	}
}

// TestACPLoadAskedAgentGone: when the asked agent's session is gone, it
// starts afresh, and the person reads one warning line saying so.
func TestACPLoadAskedAgentGone(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, askedAgent)
	state := filepath.Join(dir, "state")
	env := []string{"XDG_STATE_HOME=" + state}

	e := startRawEditorEnv(t, dir, env, "-acp")
	id := e.session(dir)
	if got := e.turn(id, "/ask-expert first"); got.answer != "I was asked:\nfirst" {
		t.Fatalf("/ask-expert first: %+v", got)
	}
	e.stop()
	asked, _ := filepath.Glob(filepath.Join(state, "mm", "sessions", "asked", "*.jsonl"))
	if len(asked) != 1 {
		t.Fatalf("asked sessions %q, want one", asked)
	}
	if err := os.Remove(asked[0]); err != nil {
		t.Fatal(err)
	}
	childID := strings.TrimSuffix(filepath.Base(asked[0]), ".jsonl")

	e = startRawEditorEnv(t, dir, env, "-acp")
	e.until(e.send("initialize", map[string]any{"protocolVersion": 1}, true), nil)
	e.load(id, dir)
	got := e.turn(id, "/ask-expert again")
	if got.answer != "I was asked:\nagain" {
		t.Errorf("answer %q, want the new session's only question", got.answer)
	}
	want := "expert could not go on with its session " + childID + " (no saved session \"" + childID + "\" in " +
		filepath.Join(state, "mm", "sessions", "asked") + ": session/list lists them): it starts a new one, without its earlier history\n"
	if n := strings.Count(got.thoughts, "could not go on"); n != 1 || !strings.Contains(got.thoughts, want) {
		t.Errorf("thoughts %q, want the one line %q", got.thoughts, want)
	}
}

// TestACPUnsavedSessionAsksUnsaved: a session that is not saved
// (persist: false) has its asked agents save nothing either: what they
// are told is its.
func TestACPUnsavedSessionAsksUnsaved(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for k, v := range askedAgent {
		files[k] = v
	}
	files["agent.yaml"] = "model: script/main.yaml\npersist: false\nmmConfigs:\n  expert: expert.yaml\n"
	writeFiles(t, dir, files)
	state := filepath.Join(dir, "state")
	e := startRawEditorEnv(t, dir, []string{"XDG_STATE_HOME=" + state}, "-acp")
	id := e.session(dir)
	if got := e.turn(id, "/ask-expert secret"); got.answer != "I was asked:\nsecret" {
		t.Fatalf("/ask-expert secret: %+v", got)
	}
	e.stop()
	var saved []string
	filepath.WalkDir(state, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			saved = append(saved, path)
		}
		return nil
	})
	if len(saved) > 0 {
		t.Errorf("an unsaved session and its asked agent saved %q", saved)
	}
}

// TestACPLoadErrors: a session another mm holds, one whose file is torn,
// an id no session has: each load fails with one line saying what to do,
// and the session file is left as it was.
func TestACPLoadErrors(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, askedAgent)
	state := filepath.Join(dir, "state")
	env := []string{"XDG_STATE_HOME=" + state}
	sessionsDir := filepath.Join(state, "mm", "sessions")

	holder := startRawEditorEnv(t, dir, env, "-acp")
	held := holder.session(dir)
	if got := holder.turn(held, "hello"); got.answer != "ok" {
		t.Fatalf("hello: %+v", got)
	}
	torn := "1m8rpp1qs2s3"
	tornFile := `{"t":"session","v":1,"id":"` + torn + `","cwd":"` + dir + `","config":"","model":"echo/x","created":"2026-12-01T09:00:00Z"}` + "\n" +
		`{"t":"message","role":"user","content":"hi"}` + "\n" + `{"t":"message","role":"assis`
	writeFiles(t, sessionsDir, map[string]string{torn + ".jsonl": tornFile})

	e := startRawEditorEnv(t, dir, env, "-acp")
	e.until(e.send("initialize", map[string]any{"protocolVersion": 1}, true), nil)
	for _, tt := range []struct {
		id   string
		code int
		want string
	}{
		{held, -32603, "session " + held + " is in use by another mm: end it there, then load it again"},
		{torn, -32603, "session " + torn + " cannot be loaded: its file ends in a line cut short (mm was stopped while writing it); mm --resume " + torn + " goes on with a copy"},
		{"1m8rpp1qs2zz", -32002, `no saved session "1m8rpp1qs2zz" in ` + sessionsDir + ": session/list lists them"},
		{"../../etc/passwd", -32002, `no saved session "../../etc/passwd" in ` + sessionsDir + ": session/list lists them"},
	} {
		r := e.until(e.send("session/load", map[string]any{"sessionId": tt.id, "cwd": dir, "mcpServers": []any{}}, true), nil)
		if r.Error == nil || r.Error.Code != tt.code || r.Error.Message != tt.want {
			t.Errorf("session/load %s: %s %+v\nwant %d %q", tt.id, r.Result, r.Error, tt.code, tt.want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(sessionsDir, torn+".jsonl")); err != nil || string(b) != tornFile {
		t.Errorf("the torn file was changed: %q %v", b, err)
	}
	if files, _ := filepath.Glob(filepath.Join(sessionsDir, "*.jsonl")); len(files) != 2 {
		t.Errorf("the sessions folder holds %q, want the held and the torn session only (no fork)", files)
	}
}

// TestACPWithoutHome: with neither HOME nor XDG_STATE_HOME there is no
// sessions folder: a session works unsaved, and a load or a list says why.
func TestACPWithoutHome(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, askedAgent)
	e := startRawEditorEnv(t, dir, []string{"HOME=", "XDG_STATE_HOME="}, "-acp")
	id := e.session(dir)
	if got := e.turn(id, "/ask-expert first"); got.answer != "I was asked:\nfirst" || got.err != "" {
		t.Fatalf("/ask-expert first: %+v", got)
	}
	for _, req := range []struct {
		method string
		params map[string]any
	}{
		{"session/load", map[string]any{"sessionId": "1m8rq10kpadx", "cwd": dir, "mcpServers": []any{}}},
		{"session/list", map[string]any{}},
	} {
		r := e.until(e.send(req.method, req.params, true), nil)
		if r.Error == nil || r.Error.Message != "no sessions folder: set HOME or XDG_STATE_HOME" {
			t.Errorf("%s: %s %+v, want the missing folder", req.method, r.Result, r.Error)
		}
	}
	e.stop()
	var left []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(path, ".jsonl") {
			left = append(left, path)
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("sessions saved without a sessions folder: %q", left)
	}
}
