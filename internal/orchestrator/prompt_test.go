package orchestrator

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The model reads the expansion of an @path line; the history keeps it, so
// that the next turn sends the very bytes the model read (a local server
// reuses its cache of an identical prefix only).
func TestExpandedQuestionIsKeptAndResent(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"notes.md": "buy milk\n"})
	m := &fakeModel{}
	s := newTestSession(t, mmconfigs.Default(dir, func(string) string { return "" }), m, &recSink{})
	if err := s.PromptTyped(context.Background(), "what is this?\n@notes.md"); err != nil {
		t.Fatal(err)
	}
	// The file changes between the turns: the history keeps what was read.
	writeTree(t, dir, map[string]string{"notes.md": "buy bread\n"})
	if err := s.Prompt(context.Background(), "and then?"); err != nil {
		t.Fatal(err)
	}
	want := "what is this?\n[file: notes.md]\n```\nbuy milk\n```"
	first, second := m.requests[0].Messages, m.requests[1].Messages
	if first[1].Content != want {
		t.Errorf("first turn read %q, want %q", first[1].Content, want)
	}
	if second[1].Content != want || second[3].Content != "and then?" {
		t.Errorf("second turn read %q … %q", second[1].Content, second[3].Content)
	}
	if h := s.History(); h[0].Content != want {
		t.Errorf("history keeps %q", h[0].Content)
	}
}

// Beside the expanded question the history keeps it as it was before the
// expansion (Typed), for a resumed session to show; only when expanding
// changed it. A question a hook rewrote is kept as the hook left it: what
// the hook took out is saved nowhere.
func TestTypedIsKeptBeside(t *testing.T) {
	const expanded = "what is this?\n[file: notes.md]\n```\nbuy milk\n```"
	// A hook that takes a key out of the question.
	const redact = `hooks:
  preGeneration:
    - command: printf '{"prompt":"key=[redacted]\\n@notes.md"}'
`
	tests := []struct {
		name  string
		hooks string
		typed bool
		text  string
		want  llm.Message
	}{
		{"an @path line", "", true, "what is this?\n@notes.md",
			llm.Message{Role: llm.RoleUser, Content: expanded, Typed: "what is this?\n@notes.md"}},
		{"nothing to expand", "", true, "what is this?",
			llm.Message{Role: llm.RoleUser, Content: "what is this?"}},
		{"from elsewhere", "", false, "what is this?\n@notes.md",
			llm.Message{Role: llm.RoleUser, Content: "what is this?\n@notes.md"}},
		{"rewritten by a hook", redact, true, "key=SECRET\n@notes.md",
			llm.Message{Role: llm.RoleUser, Content: "key=[redacted]\n[file: notes.md]\n```\nbuy milk\n```", Typed: "key=[redacted]\n@notes.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := hookedConfig(t, "model: echo/test\n"+tt.hooks, map[string]string{"notes.md": "buy milk\n"})
			s := newTestSession(t, cfg, &fakeModel{}, &recSink{})
			prompt := s.Prompt
			if tt.typed {
				prompt = s.PromptTyped
			}
			if err := prompt(context.Background(), tt.text); err != nil {
				t.Fatal(err)
			}
			if got := s.History()[0]; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("the history keeps\n%#v\nwant\n%#v", got, tt.want)
			}
		})
	}
}

// Only what the person typed is expanded: a question from elsewhere (an
// asking agent's model, an A2A client) reaches the model as it is, its
// @path and $name lines and a /command line being text; and an asked
// agent (depth > 0) has no person typing.
func TestOnlyTypedTextIsExpanded(t *testing.T) {
	const q = "what is this?\n@notes.md\n$pdf"
	tests := []struct {
		name  string
		depth string
		typed bool
		text  string
		want  string
	}{
		{"typed by the person", "", true, q, "what is this?\n[file: notes.md]\n```\nbuy milk\n```\n[skill pdf, from .mm/skills/pdf/SKILL.md: follow its instructions; its other files are in .mm/skills/pdf]\n---\nname: pdf\ndescription: d\n---\nUse pdftotext.\n[end of skill pdf]"},
		{"from elsewhere", "", false, q, q},
		{"a command from elsewhere is a question", "", false, "/compact", "/compact"},
		{"typed, in an asked agent", "1", true, q, q},
		{"a command in an asked agent is a question", "1", true, "/ask-expert @notes.md", "/ask-expert @notes.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"notes.md": "buy milk\n", ".mm/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: d\n---\nUse pdftotext.\n"})
			cfg := mmconfigs.Default(dir, func(string) string { return "" })
			cfg.Model = "echo/test"
			s, err := New(context.Background(), Options{Config: cfg, Cwd: dir, Sink: &recSink{}, Environ: []string{"MM_ASKED_DEPTH=" + tt.depth}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			m := &fakeModel{}
			s.model = m
			prompt := s.Prompt
			if tt.typed {
				prompt = s.PromptTyped
			}
			if err := prompt(context.Background(), tt.text); err != nil {
				t.Fatal(err)
			}
			if len(m.requests) != 1 {
				t.Fatalf("%d model calls", len(m.requests))
			}
			if got := m.requests[0].Messages[1].Content; got != tt.want {
				t.Errorf("the model read %q\nwant %q", got, tt.want)
			}
		})
	}
}

// A line that cannot be expanded fails the turn before the model is called,
// and leaves the history as it was.
func TestExpansionErrorSendsNothing(t *testing.T) {
	dir := t.TempDir()
	m := &fakeModel{}
	sink := &recSink{}
	s := newTestSession(t, mmconfigs.Default(dir, func(string) string { return "" }), m, sink)
	err := s.PromptTyped(context.Background(), "look\n@missing.txt")
	want := "@missing.txt: no such file or folder (a path is relative to the working directory; a line that is @<path> reads one — put the line in a ``` fence to send it as typed)"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v", err)
	}
	if len(m.requests) != 0 || len(s.History()) != 0 {
		t.Errorf("model called %d times, history %v", len(m.requests), s.History())
	}
	if e := sink.ended(); e.Err == nil || e.Err.Error() != want {
		t.Errorf("TurnEnded %+v", e)
	}
}

// The system prompt: the configuration's, the AGENTS.md files (root first)
// and one line per skill; load_skill is offered and runs without consent.
func TestSystemPromptAndLoadSkill(t *testing.T) {
	root := t.TempDir()
	cwd := filepath.Join(root, "sub")
	writeTree(t, root, map[string]string{
		".git/HEAD":                     "",
		"AGENTS.md":                     "Root rules.\n",
		"sub/AGENTS.md":                 "Sub rules.\n",
		"sub/.mm/skills/pdf/SKILL.md":   "---\nname: pdf\ndescription: Read PDF\n  files.\n---\nUse pdftotext.\n",
		"sub/.mm/skills/notes/SKILL.md": "---\nname: notes\ndescription: Keep notes.\n---\nWrite NOTES.md.\n",
	})
	cfg := mmconfigs.Default(cwd, func(string) string { return "" })
	cfg.System = "Be brief."
	m := &fakeModel{replies: []llm.Reply{
		{ToolCalls: []llm.ToolCall{call("c1", "load_skill", `{"name":"pdf"}`)}},
		{Content: "done"},
	}}
	sink := &recSink{}
	s := newTestSession(t, cfg, m, sink)
	want := "Be brief.\n\n# Project instructions (AGENTS.md)\n\nThe nearest file comes last and wins where they disagree.\n\n" +
		"## AGENTS.md\n\nRoot rules.\n\n## sub/AGENTS.md\n\nSub rules.\n\n" +
		"# Skills\n\nWhen a task matches a skill below, load it with load_skill first and follow it.\n" +
		"- notes: Keep notes.\n- pdf: Read PDF files."
	if s.System() != want {
		t.Errorf("system prompt:\n%s\nwant:\n%s", s.System(), want)
	}
	if s.SkillsBanner() != "skills: 2" {
		t.Errorf("banner part %q", s.SkillsBanner())
	}
	if err := s.Prompt(context.Background(), "read report.pdf"); err != nil {
		t.Fatal(err)
	}
	if len(sink.asked) != 0 {
		t.Errorf("consent asked: %v", sink.asked)
	}
	out := m.lastToolOutputs()
	wantOut := "[skill pdf, from .mm/skills/pdf/SKILL.md: follow its instructions; its other files are in .mm/skills/pdf]\n---\nname: pdf\ndescription: Read PDF\n  files.\n---\nUse pdftotext.\n[end of skill pdf]"
	if len(out) != 1 || out[0] != wantOut {
		t.Errorf("load_skill output %q", out)
	}
	if got := m.requests[0].Messages[0].Content; got != want {
		t.Errorf("the model read another system prompt: %q", got)
	}
}

// projectDocs: false keeps the AGENTS.md files out; without skills there is
// no list and no load_skill, and the prompt is the configuration's alone.
func TestSystemPromptOff(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"AGENTS.md": "rules"})
	cfg := mmconfigs.Default(dir, func(string) string { return "" })
	cfg.ProjectDocs = false
	s := newTestSession(t, cfg, &fakeModel{}, &recSink{})
	if s.System() != mmconfigs.DefaultSystem {
		t.Errorf("system prompt %q", s.System())
	}
	if _, ok := s.tools["load_skill"]; ok || s.SkillsBanner() != "" {
		t.Error("load_skill offered without skills")
	}
	if strings.Contains(s.toolList(), "load_skill") {
		t.Error(s.toolList())
	}
}
