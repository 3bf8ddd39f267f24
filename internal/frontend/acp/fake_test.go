package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/tools"
)

// fakeSession stands for an orchestrator session: each prompt plays the
// script named by its text.
type fakeSession struct {
	opts orchestrator.Options

	mu      sync.Mutex
	prompts []string
	// typed says, for each prompt, whether it came as the person's typing.
	typed   []bool
	answers []orchestrator.ConsentAnswer
	closed  bool
}

// sessions records the fake sessions a test's server created.
type sessions struct {
	mu   sync.Mutex
	list []*fakeSession
}

func (ss *sessions) new(_ context.Context, o orchestrator.Options) (Session, error) {
	if o.Cwd == "/fail" {
		return nil, errors.New("[config error: agent.yaml: model: none given]")
	}
	f := &fakeSession{opts: o}
	ss.mu.Lock()
	ss.list = append(ss.list, f)
	ss.mu.Unlock()
	return f, nil
}

func (ss *sessions) get(i int) *fakeSession {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.list[i]
}

func (f *fakeSession) Commands() []orchestrator.Command {
	if f.opts.Cwd == "/no-agents" {
		return nil // a configuration without mmConfigs
	}
	return []orchestrator.Command{
		{Name: "ask-expert", Description: "ask expert a question", Hint: "question"},
		{Name: "ask-with-context-expert", Description: "ask expert a question, sending this conversation along", Hint: "question"},
	}
}

func (f *fakeSession) Warnings() []string { return nil }

func (f *fakeSession) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	return nil
}

func (f *fakeSession) isClosed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closed
}

func (f *fakeSession) Prompt(ctx context.Context, text string) error {
	return f.play(ctx, text, false)
}

func (f *fakeSession) PromptTyped(ctx context.Context, text string) error {
	return f.play(ctx, text, true)
}

func (f *fakeSession) play(ctx context.Context, text string, typed bool) error {
	f.mu.Lock()
	f.prompts = append(f.prompts, text)
	f.typed = append(f.typed, typed)
	f.mu.Unlock()
	script, ok := scripts[text]
	if !ok {
		err := fmt.Errorf("no script %q", text)
		f.opts.Sink.Emit(orchestrator.TurnEnded{Err: err})
		return err
	}
	return script(ctx, f)
}

func (f *fakeSession) emit(evs ...orchestrator.Event) {
	for _, ev := range evs {
		f.opts.Sink.Emit(ev)
	}
}

func (f *fakeSession) consent(ctx context.Context, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
	a := f.opts.Sink.Consent(ctx, req)
	f.mu.Lock()
	f.answers = append(f.answers, a)
	f.mu.Unlock()
	return a
}

var lsInput = json.RawMessage(`{"command":"ls && echo <x>"}`)

// scripts are the turns the fake session plays, by prompt text.
var scripts = map[string]func(ctx context.Context, f *fakeSession) error{
	"hello": func(ctx context.Context, f *fakeSession) error {
		f.emit(orchestrator.Text{Text: "Hel"}, orchestrator.Text{Text: "lo"}, orchestrator.TurnEnded{Answer: "Hello"})
		return nil
	},
	"tool": func(ctx context.Context, f *fakeSession) error {
		f.emit(
			orchestrator.ToolStarted{ID: "c1", Name: "bash", Subject: "ls && echo <x>", Input: lsInput},
			orchestrator.ToolEnded{ID: "c1", Name: "bash", Subject: "ls && echo <x>", Status: orchestrator.ToolCompleted, Output: "a.txt"},
			orchestrator.ToolStarted{ID: "c2", Name: "read_file", Subject: "a.txt", Path: "/work/project/a.txt", Input: json.RawMessage(`{"path":"a.txt"}`)},
			orchestrator.ToolEnded{ID: "c2", Name: "read_file", Subject: "a.txt", Status: orchestrator.ToolFailed, Output: "no such file"},
			orchestrator.Text{Text: "done"},
			orchestrator.TurnEnded{Answer: "done"},
		)
		return nil
	},
	"denied": func(ctx context.Context, f *fakeSession) error {
		f.emit(
			orchestrator.ToolEnded{ID: "c1", Name: "bash", Subject: "rm -rf build", Status: orchestrator.ToolDenied, DeniedBy: "hook",
				Output: "[denied by a hook: no deletions]", Summary: "[denied by a hook: no deletions]"},
			orchestrator.ToolEnded{ID: "c2", Name: "my_tool", Status: orchestrator.ToolDenied, DeniedBy: "hook",
				Output: "[denied by a hook: no]", Summary: "[denied by a hook: no]"},
			orchestrator.TurnEnded{Answer: ""},
		)
		return nil
	},
	"hooks": func(ctx context.Context, f *fakeSession) error {
		f.emit(
			orchestrator.HookRan{N: 1, Line: "🪝 1. preGeneration · guard.sh → continue", Title: "🪝 preGeneration · guard.sh → continue"},
			orchestrator.Notice{Kind: orchestrator.NoticeHookFailure, Text: "🪝 postGeneration hook `log.sh`: exit status 1: oops"},
			orchestrator.HookRan{N: 2, Line: "🪝 2. postGeneration · log.sh → failed", Title: "🪝 postGeneration · log.sh → failed", Failed: true},
			orchestrator.Notice{Kind: orchestrator.NoticeInfo, Text: "🪝 postAsk: expert's answer was replaced by a hook — the asking agent reads the new one"},
			orchestrator.TurnEnded{Answer: ""},
		)
		return nil
	},
	"compress": func(ctx context.Context, f *fakeSession) error {
		f.emit(orchestrator.Compressing{}, orchestrator.Compressed{Before: 14200, After: 2100}, orchestrator.Text{Text: "ok"}, orchestrator.TurnEnded{Answer: "ok"})
		return nil
	},
	"ask": func(ctx context.Context, f *fakeSession) error {
		// /ask-expert: the asked agent streams, the answer as read comes last.
		f.emit(
			orchestrator.Text{Agent: "expert", Text: "An inode "},
			orchestrator.Text{Agent: "expert", Text: "is…"},
			orchestrator.ToolStarted{Agent: "expert", ID: "c1", Name: "bash", Subject: "ls", Input: json.RawMessage(`{"command":"ls"}`)},
			orchestrator.ToolEnded{Agent: "expert", ID: "c1", Name: "bash", Subject: "ls", Status: orchestrator.ToolCompleted, Output: "x"},
			orchestrator.TurnEnded{Answer: "An inode is…"},
		)
		return nil
	},
	"consent": func(ctx context.Context, f *fakeSession) error {
		req := orchestrator.ConsentRequest{ID: "c1", Tool: "write_file", Subject: "x.txt", Detail: "x.txt", Path: "/work/project/x.txt", Input: json.RawMessage(`{"path":"x.txt","content":"hi"}`),
			Change: &tools.Change{Path: "/work/project/x.txt", Created: true, OldSize: -1, New: "hi"},
			Always: &orchestrator.AlwaysOffer{For: "write_file", SaveTo: "agent.yaml"}}
		switch f.consent(ctx, req) {
		case orchestrator.AllowOnce, orchestrator.AllowAlways, orchestrator.AllowAlwaysSaved:
			f.emit(
				orchestrator.ToolStarted{ID: "c1", Name: "write_file", Subject: "x.txt", Path: req.Path, Input: req.Input},
				orchestrator.ToolEnded{ID: "c1", Name: "write_file", Subject: "x.txt", Status: orchestrator.ToolCompleted, Output: "wrote 2 bytes"},
			)
		default:
			f.emit(orchestrator.ToolEnded{ID: "c1", Name: "write_file", Subject: "x.txt", Status: orchestrator.ToolDenied, DeniedBy: "person",
				Output: "[refused: the person did not allow this call]"})
		}
		f.emit(orchestrator.TurnEnded{})
		return nil
	},
	"nested consent": func(ctx context.Context, f *fakeSession) error {
		f.consent(ctx, orchestrator.ConsentRequest{Agent: "expert", ID: "c7", Tool: "bash", Subject: "make", Input: json.RawMessage(`{"command":"make"}`), Always: &orchestrator.AlwaysOffer{For: "bash"}})
		f.emit(orchestrator.TurnEnded{})
		return nil
	},
	"wait": func(ctx context.Context, f *fakeSession) error {
		f.emit(orchestrator.Text{Text: "working"})
		<-ctx.Done()
		f.emit(orchestrator.Text{Text: " stopped"}, orchestrator.TurnEnded{Answer: "working stopped", Err: errors.New("cancelled")})
		return errors.New("cancelled")
	},
	"consent then cancel": func(ctx context.Context, f *fakeSession) error {
		f.consent(ctx, orchestrator.ConsentRequest{ID: "c1", Tool: "bash", Subject: "sleep 9", Input: json.RawMessage(`{"command":"sleep 9"}`), Always: &orchestrator.AlwaysOffer{For: "bash"}})
		<-ctx.Done()
		f.emit(orchestrator.TurnEnded{Err: errors.New("cancelled")})
		return errors.New("cancelled")
	},
	"fail": func(ctx context.Context, f *fakeSession) error {
		err := errors.New("llmman: cannot reach http://localhost:17434/v1: start llmman")
		f.emit(orchestrator.TurnEnded{Err: err})
		return err
	},
	// The prompts of test/acp-conformance/client.mjs, answered as its
	// scripted model would.
	"hello conformance": func(ctx context.Context, f *fakeSession) error {
		for _, w := range []string{"Hello", " from", " mm,", " streamed", " in", " pieces."} {
			f.emit(orchestrator.Text{Text: w})
		}
		f.emit(orchestrator.TurnEnded{Answer: "Hello from mm, streamed in pieces."})
		return nil
	},
	"run a command": func(ctx context.Context, f *fakeSession) error {
		in := json.RawMessage(`{"command":"echo conformance"}`)
		if f.consent(ctx, orchestrator.ConsentRequest{ID: "call_1", Tool: "bash", Subject: "echo conformance", Input: in, Always: &orchestrator.AlwaysOffer{For: "bash"}}) == orchestrator.AllowOnce {
			f.emit(
				orchestrator.ToolStarted{ID: "call_1", Name: "bash", Subject: "echo conformance", Input: in},
				orchestrator.ToolEnded{ID: "call_1", Name: "bash", Subject: "echo conformance", Status: orchestrator.ToolCompleted, Output: "conformance\n"},
			)
		}
		f.emit(orchestrator.Text{Text: "ran it"}, orchestrator.TurnEnded{Answer: "ran it"})
		return nil
	},
	"wait please": func(ctx context.Context, f *fakeSession) error {
		f.emit(orchestrator.Text{Text: "this"})
		<-ctx.Done()
		f.emit(orchestrator.TurnEnded{Answer: "this", Err: errors.New("cancelled")})
		return errors.New("cancelled")
	},
	"unnamed": func(ctx context.Context, f *fakeSession) error {
		f.emit(
			orchestrator.ToolStarted{Name: "bash", Subject: "ls", Input: json.RawMessage(`{"command":"ls"}`)},
			orchestrator.ToolEnded{Name: "bash", Subject: "ls", Status: orchestrator.ToolCompleted, Output: "x"},
			orchestrator.TurnEnded{},
		)
		return nil
	},
}
