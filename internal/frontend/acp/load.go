package acp

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/mm-agent/mm/internal/orchestrator"
)

var _ acp.AgentLoader = (*server)(nil)

// LoadSession goes on with a saved session in the client's cwd: its
// history is replayed as session/update notifications — the person's
// messages, the answers, each tool call with how it ended; no hook run,
// since none is part of a history — and its commands advertised, all
// before the response, as ACP asks.
func (s *server) LoadSession(ctx context.Context, p acp.LoadSessionRequest) (acp.LoadSessionResponse, error) {
	if s.opts.Store == nil {
		return acp.LoadSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionLoad)
	}
	if !filepath.IsAbs(p.Cwd) {
		return acp.LoadSessionResponse{}, acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("cwd %q is not an absolute path", p.Cwd)})
	}
	if s.session(p.SessionId) != nil {
		return acp.LoadSessionResponse{}, &acp.RequestError{Code: -32603, Message: openAlready(p.SessionId)}
	}
	ss, err := s.start(p.Cwd, p.McpServers, func(o orchestrator.Options) (Saved, error) {
		saved, err := s.opts.Store.Open(ctx, string(p.SessionId), o)
		if err == nil && saved.ID != string(p.SessionId) {
			// The client names the session by the id it will use.
			s.endSaving(saved)
			return Saved{}, fmt.Errorf("session/load: saved session %q opened for %q: %w", saved.ID, p.SessionId, ErrUnknownSession)
		}
		return saved, err
	})
	if err != nil {
		return acp.LoadSessionResponse{}, err
	}
	if r := ss.saved.Resume; r != nil {
		ss.sink.replay(orchestrator.Replay(r.History, p.Cwd))
	}
	ss.sink.commands(promptCommands(ss.orch))
	if err := s.add(ss); err != nil {
		return acp.LoadSessionResponse{}, err
	}
	return acp.LoadSessionResponse{}, nil
}

// ListSessions lists the saved sessions, of the request's cwd when it
// gives one, the latest first, in one page.
func (s *server) ListSessions(ctx context.Context, p acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	if s.opts.Store == nil {
		return acp.ListSessionsResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionList)
	}
	if p.Cursor != nil {
		return acp.ListSessionsResponse{}, acp.NewInvalidParams(map[string]any{"error": "cursor: mm lists every session in one page and gives no cursor"})
	}
	cwd := ""
	if p.Cwd != nil {
		if !filepath.IsAbs(*p.Cwd) {
			return acp.ListSessionsResponse{}, acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("cwd %q is not an absolute path", *p.Cwd)})
		}
		cwd = *p.Cwd
		if s.opts.Cwd != "" {
			cwd = s.opts.Cwd // every session's folder, as in start
		}
	}
	list, err := s.opts.Store.List(ctx, cwd)
	if err != nil {
		s.log.line("mm: session/list: " + err.Error())
		return acp.ListSessionsResponse{}, &acp.RequestError{Code: -32603, Message: err.Error()}
	}
	resp := acp.ListSessionsResponse{Sessions: make([]acp.SessionInfo, 0, len(list))}
	for _, info := range list {
		si := acp.SessionInfo{SessionId: acp.SessionId(info.ID), Cwd: info.Cwd}
		if info.Title != "" {
			si.Title = acp.Ptr(info.Title)
		}
		if !info.Updated.IsZero() {
			si.UpdatedAt = acp.Ptr(info.Updated.UTC().Format(time.RFC3339))
		}
		resp.Sessions = append(resp.Sessions, si)
	}
	return resp, nil
}

// replay sends a saved history's events as the live ones were sent, the
// person's messages as user_message_chunk; then the sink starts afresh,
// as after a turn.
func (k *sink) replay(evs []orchestrator.Event) {
	for _, ev := range evs {
		k.Emit(ev)
	}
	k.endTurn()
}
