package agentproc

import (
	"context"
	"fmt"
	"reflect"
	"testing"
)

// TestLife: the rules of an asked agent's life (Agent.Prompt): which
// prompts start a child, which failures start it again and how often,
// which session a new child goes on with, and what the person is told.
// Each start is given the session Answered was last told, as the
// orchestrator does for a saved session.
func TestLife(t *testing.T) {
	type step struct {
		prompt string
		cancel bool // cancelled once the child says "waiting"
		answer string
		err    string
	}
	tests := []struct {
		name string
		// configs are the fake agent's configuration at the first start,
		// the second, …; the last one stays. foreign starts it by command,
		// as an agent other than mm.
		configs []string
		foreign bool
		session string // Options.Session at the first start
		steps   []step
		// starts is how many starts were tried; warnings what Warn was
		// told; answered what Answered was told.
		starts   int
		warnings []string
		answered []string
	}{
		{
			name:    "started on the first prompt and kept",
			configs: []string{"agent.yaml"},
			steps:   []step{{prompt: "echo a", answer: "a"}, {prompt: "whoami", answer: "s1 new"}},
			starts:  1, answered: []string{"s1", "s1"},
		},
		{
			name:    "a crash: the next prompt starts it again, on its session",
			configs: []string{"agent.yaml"}, session: "s-old",
			steps: []step{
				{prompt: "whoami", answer: "s-old loaded"},
				{prompt: "crash", err: `agent "fake" exited (exit status 2): boom: the fake agent crashed second line`},
				{prompt: "whoami", answer: "s-old loaded"},
			},
			starts: 2, answered: []string{"s-old", "s-old"},
		},
		{
			name:    "a crash before any answer: a new session",
			configs: []string{"agent.yaml"},
			steps: []step{
				{prompt: "crash", err: `agent "fake" exited (exit status 2): boom: the fake agent crashed second line`},
				{prompt: "whoami", answer: "s1 new"},
			},
			starts: 2, answered: []string{"s1"},
		},
		{
			name:    "a failed prompt keeps the child",
			configs: []string{"agent.yaml"},
			steps: []step{
				{prompt: "fail", err: `agent "fake": Internal error: model unreachable`},
				{prompt: "stop max_tokens", err: `agent "fake" ended its turn early (stop reason "max_tokens")`},
				{prompt: "whoami", answer: "s1 new"},
			},
			starts: 1, answered: []string{"s1", "s1", "s1"},
		},
		{
			name:    "a cancelled prompt stops it: the next starts another, on its session",
			configs: []string{"agent.yaml"}, session: "s-old",
			steps: []step{
				{prompt: "wait", cancel: true, answer: "waitingstopped", err: `agent "fake": context canceled`},
				{prompt: "whoami", answer: "s-old loaded"},
			},
			starts: 2, answered: []string{"s-old", "s-old"},
		},
		{
			name:    "a failed start is tried again on the next prompt",
			configs: []string{"fail-start", "agent.yaml"},
			steps: []step{
				{prompt: "echo x", err: `start agent "fake": exited (exit status 1): [config error: fail-start: broken]`},
				{prompt: "echo y", answer: "y"},
			},
			starts: 2, answered: []string{"s1"},
		},
		{
			name:    "once per prompt: a child that dies at each start fails each prompt",
			configs: []string{"agent.yaml"}, session: "s-crash",
			steps: []step{
				{prompt: "whoami", err: `start agent "fake": exited (exit status 3): boom: crashed while loading`},
				{prompt: "whoami", err: `start agent "fake": exited (exit status 3): boom: crashed while loading`},
			},
			starts: 2,
		},
		{
			name:    "an earlier session it cannot load: a new one, said",
			configs: []string{"agent.yaml"}, session: "s-gone",
			steps:  []step{{prompt: "whoami", answer: "s1 new"}},
			starts: 1, answered: []string{"s1"},
			warnings: []string{`fake could not go on with its session s-gone (session "s-gone": no saved session has this id): it starts a new one, without its earlier history`},
		},
		{
			name:    "an agent that loads no session: a new one, said",
			configs: []string{"noload"}, session: "s-old",
			steps:  []step{{prompt: "whoami", answer: "s1 new"}},
			starts: 1, answered: []string{"s1"},
			warnings: []string{"fake could not go on with its session s-old (it does not load sessions (no loadSession in its initialize)): it starts a new one, without its earlier history"},
		},
		{
			name:    "an agent other than mm is not asked to load, said",
			configs: []string{"foreign"}, foreign: true, session: "s-old",
			steps:  []step{{prompt: "whoami", answer: "s1 new"}},
			starts: 1, answered: []string{"s1"},
			warnings: []string{"other starts a new session, without its earlier history: mm asks only an mm to load its earlier session"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			session := tt.session
			var starts int
			var warnings, answered []string
			a := New()
			defer a.Close()
			for i, st := range tt.steps {
				ctx, cancel := context.WithTimeout(context.Background(), wait)
				r := &recorder{onText: func(s string) {
					if st.cancel && s == "waiting" {
						cancel()
					}
				}}
				h := life{recorder: r,
					options: func() Options {
						config := tt.configs[min(starts, len(tt.configs)-1)]
						starts++
						opts := options(t, config, 0)
						if tt.foreign {
							opts = commandOptions(t, config)
						}
						opts.Session = session
						return opts
					},
					warned: func(text string) { warnings = append(warnings, text) },
					answered: func(id string) {
						answered = append(answered, id)
						session = id
					},
				}
				err := a.Prompt(ctx, st.prompt, h)
				cancel()
				if got := errText(err); got != st.err || r.answerText() != st.answer {
					t.Errorf("step %d (%s): answer %q, error %q; want %q, %q", i, st.prompt, r.answerText(), got, st.answer, st.err)
				}
			}
			if starts != tt.starts || !reflect.DeepEqual(warnings, tt.warnings) || !reflect.DeepEqual(answered, tt.answered) {
				t.Errorf("starts %d, warned %q, answered %q;\nwant %d, %q, %q", starts, warnings, answered, tt.starts, tt.warnings, tt.answered)
			}
		})
	}
}

// life is a recorder whose starts, and what it is told of them, are the
// test's.
type life struct {
	*recorder
	options          func() Options
	warned, answered func(string)
}

func (l life) Options(context.Context) Options { return l.options() }
func (l life) Warn(text string)                { l.warned(text) }
func (l life) Answered(session string)         { l.answered(session) }

// TestPromptAfterClose: a closed Agent starts nothing again.
func TestPromptAfterClose(t *testing.T) {
	opts := options(t, "agent.yaml", 0)
	a := New()
	if err := prompt(t, a, "echo x", &recorder{opts: opts}); err != nil {
		t.Fatal(err)
	}
	pid := a.p.cmd.Process.Pid
	a.Close()
	err := prompt(t, a, "echo y", &recorder{opts: opts})
	if got, want := errText(err), `agent "fake" was closed`; got != want || a.p != nil {
		t.Errorf("prompt after Close: %q, a child %v; want %q and none", got, a.p != nil, want)
	}
	if alive(pid) {
		t.Errorf("process %d outlived Close", pid)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return fmt.Sprint(err)
}
