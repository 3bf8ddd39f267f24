package frontend

import (
	"fmt"
	"strings"
	"time"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// Progress follows what a turn waits on — the model's first word, a tool,
// an asked agent — and the token usage of the turns, for the line mode's
// spinner and the window's status line. It is not safe for concurrent use:
// its owner serialises the calls.
type Progress struct {
	// acts are the waits under way, oldest first; the newest is shown.
	acts []activity
	// last is the latest turn's usage; total the session's.
	last, total orchestrator.Usage
	turns       int
}

type activity struct {
	key, label string
	since      time.Time
}

const (
	modelKey    = "model"
	compressKey = "compress"
)

// Observe updates p with one event that arrived at now.
func (p *Progress) Observe(ev orchestrator.Event, now time.Time) {
	switch e := ev.(type) {
	case orchestrator.ModelStarted:
		what := "thinking"
		if e.Loading {
			what = "loading the model"
		}
		p.add(modelKey, what, now)
	case orchestrator.Text:
		if e.Agent == "" {
			p.remove(modelKey)
		}
	case orchestrator.ToolStarted:
		if e.Agent == "" {
			p.remove(modelKey)
		}
		switch {
		case e.Name == "ask_agent" && e.Agent == "":
			// AskStarted said it already.
		case e.Name == "ask_agent":
			p.add(toolKey(e.Agent, e.ID), "["+e.Agent+"] asking "+e.Subject, now)
		default:
			p.add(toolKey(e.Agent, e.ID), "running "+orchestrator.CallTitle(e.Agent, e.Name, e.Subject), now)
		}
	case orchestrator.ToolEnded:
		if e.Agent == "" {
			p.remove(modelKey)
		}
		p.remove(toolKey(e.Agent, e.ID))
	case orchestrator.Compressing:
		p.add(compressKey, "compressing the conversation", now)
	case orchestrator.Compressed:
		for p.has(compressKey) {
			p.remove(compressKey)
		}
	case orchestrator.AskStarted:
		p.add("ask:"+e.Agent, "asking "+e.Agent, now)
	case orchestrator.AskEnded:
		p.remove("ask:" + e.Agent)
	case orchestrator.TurnEnded:
		p.acts = nil
		p.last = e.Usage
		p.total = p.total.Add(e.Usage)
		p.turns++
	case orchestrator.HookRan, orchestrator.Notice, orchestrator.CommandReply, orchestrator.UserText:
		// Neither begins nor ends a wait.
	}
}

func toolKey(agent, id string) string { return "tool:" + agent + ":" + id }

func (p *Progress) add(key, label string, now time.Time) {
	p.acts = append(p.acts, activity{key: key, label: label, since: now})
}

// has says a wait under key is under way.
func (p *Progress) has(key string) bool {
	for _, a := range p.acts {
		if a.key == key {
			return true
		}
	}
	return false
}

// remove ends the newest wait under key.
func (p *Progress) remove(key string) {
	for i := len(p.acts) - 1; i >= 0; i-- {
		if p.acts[i].key == key {
			p.acts = append(p.acts[:i], p.acts[i+1:]...)
			return
		}
	}
}

// Waiting says what the turn waits on and since when, as of now:
// "asking expert… 3.2 s"; "" when it waits on nothing. Names and
// subjects come from the model: the caller makes the line visible.
func (p *Progress) Waiting(now time.Time) string {
	if len(p.acts) == 0 {
		return ""
	}
	a := p.acts[len(p.acts)-1]
	return fmt.Sprintf("%s… %.1f s", a.label, now.Sub(a.since).Seconds())
}

// Since is when the wait shown began; zero when there is none.
func (p *Progress) Since() time.Time {
	if len(p.acts) == 0 {
		return time.Time{}
	}
	return p.acts[len(p.acts)-1].since
}

// LastUsage is the latest turn's usage; ok is false before the first turn.
func (p *Progress) LastUsage() (u orchestrator.Usage, ok bool) { return p.last, p.turns > 0 }

// UsageReport is /usage's text: the latest turn's counts and the session's.
func (p *Progress) UsageReport() string {
	if p.turns == 0 {
		return "(no turn yet: /usage shows the tokens of the last turn)"
	}
	return "last turn: " + UsageLine(p.last) + "\nthis session: " + UsageLine(p.total)
}

// UsageLine says what a server counted: "310 tokens in · 42 out · 81.9
// tokens/s · 2 model calls".
func UsageLine(u orchestrator.Usage) string {
	calls := plural(u.Calls, "model call")
	if u.Reported == 0 {
		if u.Calls == 0 {
			return "no model call"
		}
		return "no token counts from the server · " + calls
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d tokens in · %d out", u.InputTokens, u.OutputTokens)
	if r := u.TokensPerSecond(); r > 0 {
		fmt.Fprintf(&b, " · %.1f tokens/s", r)
	}
	b.WriteString(" · " + calls)
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
