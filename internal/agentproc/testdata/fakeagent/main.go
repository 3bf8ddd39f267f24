// Command fakeagent is an ACP agent for agentproc's tests. It is started as
// mm would be ("-acp --config <file>") and answers each prompt according to
// its first word:
//
//	echo a b c    streams "a", " b", " c"
//	tool          a tool call and its completion, then "done"
//	nested        text and a tool call from an asked agent, a private
//	              thought, a notice, then "ok"
//	permission    asks permission and answers "selected <id>" or "cancelled"
//	wait          "waiting", then waits for session/cancel, then "stopped"
//	hang          "hanging", then ignores everything
//	stubborn      "ok", and no longer exits when stdin closes
//	crash         writes to stderr and exits with status 2
//	stop <reason> ends the turn with that stop reason
//	fail          answers with a JSON-RPC error
//	env           "<cwd> <MM_ASKED_DEPTH>"
//	spawn         starts "sleep 1000" in its process group, answers its pid
//	whoami        "<session id> <how it was opened: new or loaded>"
//	getenv NAME   the value of $NAME, or "unset"
//	pendingtool   a tool call announced pending, then completed, then "done"
//	oddpermission asks permission offering only a kind no client knows,
//	              then waits for session/cancel
//
// A configuration file named "fail-start" makes it fail at once, as mm does
// on a configuration error; one named "mute" makes it exit at once without
// a word; "banner" makes it print a banner on stdout instead of speaking
// ACP; "silent" makes it never answer; "foreign" makes it add no mm _meta
// to anything, as an agent other than mm; "noload" makes it offer no
// session/load.
//
// session/load loads the ids "s-old" and "s-long", replaying a history
// before its response ("s-long": more updates than a prompt's queue
// holds); it fails "s-gone" as mm fails an unknown id, exits at
// "s-crash", and never answers "s-hang".
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/mm-agent/mm/internal/acpconn"
)

type agent struct {
	conn     *acp.AgentSideConnection
	stubborn atomic.Bool
	noLoad   bool
	// hostile names itself with terminal escapes in initialize.
	hostile bool
	opened  sync.Map // session id → "new" or "loaded"
}

func main() {
	if len(os.Args) != 4 || os.Args[1] != "-acp" || os.Args[2] != "--config" {
		fmt.Fprintf(os.Stderr, "usage: fakeagent -acp --config <file>, got %q\n", os.Args[1:])
		os.Exit(2)
	}
	switch filepath.Base(os.Args[3]) {
	case "fail-start":
		fmt.Fprintln(os.Stderr, "[config error: fail-start: broken]")
		os.Exit(1)
	case "mute":
		os.Exit(0)
	case "banner":
		fmt.Fprintln(os.Stderr, "fakeagent: interactive mode")
		fmt.Println("Welcome to FakeAgent 1.0 - type /help for help")
		time.Sleep(time.Hour)
	case "silent":
		fmt.Fprintln(os.Stderr, "fakeagent: warming up")
		time.Sleep(time.Hour)
	case "foreign":
		foreign = true
	}
	a := &agent{noLoad: filepath.Base(os.Args[3]) == "noload", hostile: filepath.Base(os.Args[3]) == "hostile"}
	ready := make(chan struct{})
	a.conn = acp.NewAgentSideConnection(a, os.Stdout, acpconn.Gated(os.Stdin, ready))
	a.conn.SetLogger(slog.New(slog.DiscardHandler))
	close(ready)
	<-a.conn.Done()
	if a.stubborn.Load() {
		select {}
	}
}

func (a *agent) Initialize(context.Context, acp.InitializeRequest) (acp.InitializeResponse, error) {
	r := acp.InitializeResponse{ProtocolVersion: acp.ProtocolVersionNumber, AuthMethods: []acp.AuthMethod{},
		AgentCapabilities: acp.AgentCapabilities{LoadSession: !a.noLoad}}
	if a.hostile {
		// It sets the terminal's title and erases the line above.
		r.AgentInfo = &acp.Implementation{Name: "\x1b]0;pwned\x07fake", Version: "1.0\n\x1b[1A\x1b[2K"}
	}
	return r, nil
}

func (a *agent) NewSession(context.Context, acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	a.opened.Store(acp.SessionId("s1"), "new")
	return acp.NewSessionResponse{SessionId: "s1"}, nil
}

func (a *agent) LoadSession(ctx context.Context, p acp.LoadSessionRequest) (acp.LoadSessionResponse, error) {
	sid := p.SessionId
	replayed := 0
	switch sid {
	case "s-old":
		replayed = 1
	case "s-long":
		replayed = 1000
	case "s-gone":
		return acp.LoadSessionResponse{}, &acp.RequestError{Code: -32002, Message: `session "s-gone": no saved session has this id`}
	case "s-crash":
		fmt.Fprintln(os.Stderr, "boom: crashed while loading")
		os.Exit(3)
	case "s-hang":
		fmt.Fprintln(os.Stderr, "fakeagent: reading a long history")
		<-ctx.Done()
		return acp.LoadSessionResponse{}, ctx.Err()
	default:
		return acp.LoadSessionResponse{}, fmt.Errorf("unknown session %q", sid)
	}
	for range replayed {
		a.say(ctx, sid, acp.UpdateUserMessageText("an old question"))
		a.say(ctx, sid, acp.UpdateAgentMessageText("REPLAYED"))
		a.say(ctx, sid, acp.StartToolCall("call_1", "bash: ls", acp.WithStartKind(acp.ToolKindExecute), acp.WithStartStatus(acp.ToolCallStatusCompleted)))
	}
	a.opened.Store(sid, "loaded")
	return acp.LoadSessionResponse{}, nil
}

func (a *agent) Cancel(context.Context, acp.CancelNotification) error { return nil }

func (a *agent) say(ctx context.Context, sid acp.SessionId, u acp.SessionUpdate) {
	_ = a.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: sid, Update: u})
}

// foreign is set for an agent other than mm: no _meta anywhere.
var foreign bool

func mmMeta(m map[string]any) map[string]any {
	if foreign {
		return nil
	}
	return map[string]any{"mm": m}
}

func (a *agent) Prompt(ctx context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	sid := p.SessionId
	text := p.Prompt[0].Text.Text
	words := strings.Fields(text)
	end := acp.PromptResponse{StopReason: acp.StopReasonEndTurn}
	switch words[0] {
	case "echo":
		for i, w := range words[1:] {
			if i > 0 {
				w = " " + w
			}
			a.say(ctx, sid, acp.UpdateAgentMessageText(w))
		}
	case "tool":
		start := acp.StartToolCall("call_1", "bash: ls",
			acp.WithStartKind(acp.ToolKindExecute),
			acp.WithStartStatus(acp.ToolCallStatusInProgress),
			acp.WithStartRawInput(map[string]any{"command": "ls && echo <x>"}))
		start.ToolCall.Meta = mmMeta(map[string]any{"tool": "bash", "subject": "ls"})
		a.say(ctx, sid, start)
		a.say(ctx, sid, acp.UpdateToolCall("call_1",
			acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
			acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock("a.txt"))})))
		a.say(ctx, sid, acp.UpdateAgentMessageText("done"))
	case "nested":
		deep := acp.UpdateAgentThoughtText("deep text")
		deep.AgentThoughtChunk.Meta = mmMeta(map[string]any{"agent": "checker"})
		a.say(ctx, sid, deep)
		a.say(ctx, sid, acp.UpdateAgentThoughtText("private"))
		notice := acp.UpdateAgentThoughtText("a notice")
		notice.AgentThoughtChunk.Meta = mmMeta(map[string]any{"agent": "checker", "notice": "info"})
		a.say(ctx, sid, notice)
		call := acp.StartToolCall("checker/call_9", "[checker] read_file: a.txt",
			acp.WithStartKind(acp.ToolKindRead), acp.WithStartStatus(acp.ToolCallStatusFailed))
		call.ToolCall.Meta = mmMeta(map[string]any{"agent": "checker", "tool": "read_file", "subject": "a.txt", "denied": "hook"})
		a.say(ctx, sid, call)
		a.say(ctx, sid, acp.UpdateAgentMessageText("ok"))
	case "permission":
		a.say(ctx, sid, acp.StartToolCall("call_2", "write_file: x.txt",
			acp.WithStartKind(acp.ToolKindEdit), acp.WithStartStatus(acp.ToolCallStatusPending)))
		// Wait for the client's answer even once cancelled: the ACP client
		// must answer "cancelled" then.
		resp, err := a.conn.RequestPermission(context.WithoutCancel(ctx), acp.RequestPermissionRequest{
			SessionId: sid,
			ToolCall: acp.ToolCallUpdate{
				ToolCallId: "call_2",
				Title:      acp.Ptr("write_file: x.txt"),
				Kind:       acp.Ptr(acp.ToolKindEdit),
				RawInput:   map[string]any{"path": "x.txt"},
				Meta:       mmMeta(map[string]any{"tool": "write_file", "subject": "x.txt"}),
			},
			Options: []acp.PermissionOption{
				{Kind: acp.PermissionOptionKindAllowOnce, Name: "Allow once", OptionId: "opt-ao"},
				{Kind: acp.PermissionOptionKindAllowAlways, Name: "Allow always", OptionId: "opt-aa"},
				{Kind: acp.PermissionOptionKindRejectOnce, Name: "Reject once", OptionId: "opt-ro"},
				{Kind: acp.PermissionOptionKindRejectAlways, Name: "Reject always", OptionId: "opt-ra"},
			},
		})
		switch {
		case err != nil:
			a.say(context.WithoutCancel(ctx), sid, acp.UpdateAgentMessageText("error"))
		case resp.Outcome.Selected != nil:
			a.say(ctx, sid, acp.UpdateAgentMessageText("selected "+string(resp.Outcome.Selected.OptionId)))
		default:
			a.say(context.WithoutCancel(ctx), sid, acp.UpdateAgentMessageText("cancelled"))
		}
		if ctx.Err() != nil {
			return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
		}
	case "wait":
		a.say(ctx, sid, acp.UpdateAgentMessageText("waiting"))
		<-ctx.Done()
		a.say(context.WithoutCancel(ctx), sid, acp.UpdateAgentMessageText("stopped"))
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	case "endless":
		// An answer that never ends, until the client cancels the turn.
		piece := strings.Repeat("endless answer ", 4<<10)
		for ctx.Err() == nil {
			a.say(ctx, sid, acp.UpdateAgentMessageText(piece))
		}
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	case "hang":
		a.say(ctx, sid, acp.UpdateAgentMessageText("hanging"))
		select {}
	case "stubborn":
		a.stubborn.Store(true)
		a.say(ctx, sid, acp.UpdateAgentMessageText("ok"))
	case "crash":
		fmt.Fprint(os.Stderr, "boom: the fake agent crashed\nsecond line\n")
		os.Exit(2)
	case "stop":
		return acp.PromptResponse{StopReason: acp.StopReason(words[1])}, nil
	case "fail":
		return acp.PromptResponse{}, errors.New("model unreachable")
	case "env":
		wd, _ := os.Getwd()
		a.say(ctx, sid, acp.UpdateAgentMessageText(wd+" "+os.Getenv("MM_ASKED_DEPTH")))
	case "whoami":
		how, _ := a.opened.Load(sid)
		a.say(ctx, sid, acp.UpdateAgentMessageText(fmt.Sprintf("%s %v", sid, how)))
	case "getenv":
		v, ok := os.LookupEnv(words[1])
		if !ok {
			v = "unset"
		}
		a.say(ctx, sid, acp.UpdateAgentMessageText(v))
	case "pendingtool":
		a.say(ctx, sid, acp.StartToolCall("t1", "Shell ls -la", acp.WithStartKind(acp.ToolKindExecute)))
		a.say(ctx, sid, acp.UpdateToolCall("t1", acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
			acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock("a.txt"))})))
		a.say(ctx, sid, acp.UpdateAgentMessageText("done"))
	case "oddpermission":
		_, _ = a.conn.RequestPermission(context.WithoutCancel(ctx), acp.RequestPermissionRequest{
			SessionId: sid,
			ToolCall:  acp.ToolCallUpdate{ToolCallId: "c1", Title: acp.Ptr("rm -rf build")},
			Options:   []acp.PermissionOption{{Kind: "allow_sometimes", Name: "Sometimes", OptionId: "o1"}},
		})
		<-ctx.Done()
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	case "spawn":
		cmd := exec.Command("sleep", "1000")
		if err := cmd.Start(); err != nil {
			return acp.PromptResponse{}, err
		}
		a.say(ctx, sid, acp.UpdateAgentMessageText(strconv.Itoa(cmd.Process.Pid)))
	default:
		return acp.PromptResponse{}, fmt.Errorf("unknown prompt %q", text)
	}
	return end, nil
}

func (a *agent) Authenticate(context.Context, acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, nil
}

func (a *agent) CloseSession(context.Context, acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	return acp.CloseSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionClose)
}

func (a *agent) ListSessions(context.Context, acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	return acp.ListSessionsResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionList)
}

func (a *agent) ResumeSession(context.Context, acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	return acp.ResumeSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionResume)
}

func (a *agent) SetSessionConfigOption(context.Context, acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	return acp.SetSessionConfigOptionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionSetConfigOption)
}

func (a *agent) SetSessionMode(context.Context, acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	return acp.SetSessionModeResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionSetMode)
}
