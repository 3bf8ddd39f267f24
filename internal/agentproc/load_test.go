package agentproc

import (
	"context"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// TestLoadEarlierSession: an agent with an earlier session is asked to
// load it; its replayed history is not shown, nor part of the next answer.
// When it cannot load it, a new session is opened and notLoaded says why.
func TestLoadEarlierSession(t *testing.T) {
	tests := []struct {
		name, config, earlier string
		session, notLoaded    string
		answer                string
	}{
		{"loaded", "agent.yaml", "s-old", "s-old", "", "s-old loaded"},
		{"a replay longer than a prompt's queue", "agent.yaml", "s-long", "s-long", "", "s-long loaded"},
		{"gone", "agent.yaml", "s-gone", "s1", `session "s-gone": no saved session has this id`, "s1 new"},
		{"an agent that loads no session", "noload", "s-old", "s1", "it does not load sessions (no loadSession in its initialize)", "s1 new"},
		{"none asked for", "agent.yaml", "", "s1", "", "s1 new"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := options(t, tt.config, 0)
			opts.Session = tt.earlier
			ctx, cancel := context.WithTimeout(context.Background(), wait)
			defer cancel()
			a, err := Start(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			if a.p.session != acp.SessionId(tt.session) || a.p.notLoaded != tt.notLoaded {
				t.Errorf("session %q, not loaded %q; want %q, %q", a.p.session, a.p.notLoaded, tt.session, tt.notLoaded)
			}
			r := &recorder{}
			if err := prompt(t, a, "whoami", r); err != nil {
				t.Fatal(err)
			}
			if got := r.answerText(); got != tt.answer {
				t.Errorf("answer %q, want %q", got, tt.answer)
			}
			if len(r.texts) != 1 || len(r.tools) != 0 {
				t.Errorf("the prompt showed %d texts and %d tool calls, want only its answer: %+v %+v", len(r.texts), len(r.tools), r.texts, r.tools)
			}
		})
	}
}

// TestLoadCrash: a child that dies while it loads fails the start, with
// its stderr, as any start does.
func TestLoadCrash(t *testing.T) {
	opts := options(t, "agent.yaml", 0)
	opts.Session = "s-crash"
	if got, want := startFails(t, opts), `start agent "fake": exited (exit status 3): boom: crashed while loading`; got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
}

// TestCommandAgentLoads: an mm by command (here over ssh) loads an earlier
// session as an mm by file does; the load is part of the start, bounded by
// the start timeout.
func TestCommandAgentLoads(t *testing.T) {
	tests := []struct {
		name, earlier string
		session, err  string
	}{
		{"loaded", "s-old", "s-old", ""},
		{"no answer", "s-hang", "", `start agent "other" (ssh me@h): no answer to session/load within 1s: fakeagent: reading a long history`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := commandOptions(t, "foreign")
			opts.Host = "me@h"
			opts.Session = tt.earlier
			opts.StartTimeout = time.Second
			ctx, cancel := context.WithTimeout(context.Background(), wait)
			defer cancel()
			a, err := Start(ctx, opts)
			if err != nil {
				if err.Error() != tt.err {
					t.Errorf("error\n got %q\nwant %q", err, tt.err)
				}
				leftIn(t, opts.Dir)
				return
			}
			defer a.Close()
			if tt.err != "" {
				t.Fatalf("Start succeeded, want %q", tt.err)
			}
			if a.p.session != acp.SessionId(tt.session) || a.p.notLoaded != "" {
				t.Errorf("session %q, not loaded %q; want %q loaded", a.p.session, a.p.notLoaded, tt.session)
			}
		})
	}
}
