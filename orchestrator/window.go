package orchestrator

import (
	"context"
	"strings"
	"sync"

	"github.com/mm-agent/mm/llm"
	"github.com/mm-agent/mm/mmconfigs"
)

// window is what a session knows of its model's context window and of the
// tokens its history holds. The server's own count (usage) of the last
// request and its reply is exact; only what joined the history since is
// estimated.
type window struct {
	mu sync.Mutex
	// size is the window in tokens once settled; 0 while not known.
	size int
	// told says the server told the window (its answer, or its refusal
	// of a request over it).
	told bool
	// exact is the server's count of the last request and its reply,
	// which were the system prompt, the tools and history[:covered], the
	// last of them lastCounted; valid is false when there is no such count
	// (no call yet, a server that sends no usage, a history replaced since).
	exact, covered int
	lastCounted    llm.Message
	valid          bool
	// contexts is the estimate of the hooks' contexts the count included:
	// they were the turn's, and are not in the requests of the next.
	contexts int
}

// Estimating text the server has not counted: a token for every
// bytesPerToken bytes, the usual ratio of English and code in the
// tokenizers of local models (a little less for other scripts: the retry
// on a refused request is the backstop), and messageFraming tokens for
// the role markers the chat template adds around each message.
const (
	bytesPerToken  = 4
	messageFraming = 4
)

// estimateTokens is the estimate of msgs.
func estimateTokens(msgs []llm.Message) int {
	n := 0
	for _, m := range msgs {
		n += estimateMessage(m)
	}
	return n
}

// estimateMessage is the estimate of one message, its tool calls included.
func estimateMessage(m llm.Message) int {
	b := len(m.Content)
	for _, c := range m.ToolCalls {
		b += len(c.Name) + len(c.Arguments) + len(c.ID)
	}
	return (b+bytesPerToken-1)/bytesPerToken + messageFraming
}

// estimateSpecs is the estimate of the tools' descriptions.
func estimateSpecs(specs []llm.ToolSpec) int {
	b := 0
	for _, t := range specs {
		b += len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	return (b + bytesPerToken - 1) / bytesPerToken
}

// promptTokens is how many tokens the next request holds: the server's
// count of the last one and its reply, plus the estimate of what joined
// the history since; the estimate of all of it when there is no count.
func (s *Session) promptTokens(specs []llm.ToolSpec) int {
	s.mu.Lock()
	hist := s.history
	contexts := s.contextTokens()
	s.mu.Unlock()
	w := &s.window
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.valid && w.covered <= len(hist) && w.covered > 0 && sameMessage(hist[w.covered-1], w.lastCounted) {
		return w.exact - w.contexts + contexts + estimateTokens(hist[w.covered:])
	}
	return estimateTokens([]llm.Message{{Role: llm.RoleSystem, Content: s.system}}) +
		estimateSpecs(specs) + estimateTokens(hist) + contexts
}

// countedCall keeps the server's count of the request just answered, whose
// reply is now the end of the history.
func (s *Session) countedCall(u llm.Usage) {
	if u.InputTokens <= 0 {
		return
	}
	s.mu.Lock()
	n := len(s.history)
	var last llm.Message
	if n > 0 {
		last = s.history[n-1]
	}
	contexts := s.contextTokens()
	s.mu.Unlock()
	w := &s.window
	w.mu.Lock()
	w.exact, w.covered, w.lastCounted, w.valid = u.InputTokens+u.OutputTokens, n, last, n > 0
	w.contexts = contexts
	w.mu.Unlock()
}

// sameMessage says a and b are one message: a check that the history the
// server counted is still there (whoever replaced it).
func sameMessage(a, b llm.Message) bool {
	return a.Role == b.Role && a.Content == b.Content && a.ToolCallID == b.ToolCallID && len(a.ToolCalls) == len(b.ToolCalls)
}

// forgetCount drops the server's count: the history it counted is gone.
func (s *Session) forgetCount() {
	s.window.mu.Lock()
	s.window.valid = false
	s.window.mu.Unlock()
}

// configuredWindow is the window the configuration gives: the agent's own
// contextWindow, else its provider's; 0 when neither says.
func (s *Session) configuredWindow() int {
	if s.cfg.ContextWindow > 0 {
		return s.cfg.ContextWindow
	}
	provider, _, _ := strings.Cut(s.ref, "/")
	return s.cfg.Providers[provider].ContextWindow
}

// fallbackWindow is the window when the server does not say: the
// configuration's, else the provider's default.
func (s *Session) fallbackWindow() int {
	if n := s.configuredWindow(); n > 0 {
		return n
	}
	return llm.DefaultWindowFor(s.ref)
}

// probeShare is the share of compressAt × DefaultContextWindow under which
// the server is not asked its window: a conversation that small fits any
// window a model is run with, and mm -p's one question pays nothing.
const probeShare = 0.5

// windowSize is the model's window, given that the next request holds
// about tokens. The server is asked once a session, and only once the
// conversation is large enough for its answer to matter; the smaller of
// its answer and the configuration's governs (a person may keep requests
// smaller than the server allows; a server that lies is caught by its
// refusal, which says its real window).
func (s *Session) windowSize(ctx context.Context, tokens int) int {
	w := &s.window
	w.mu.Lock()
	size := w.size
	w.mu.Unlock()
	if size > 0 {
		return size
	}
	fallback := s.fallbackWindow()
	wr, ok := s.model.(llm.WindowReader)
	if !ok {
		return s.settleWindow(fallback)
	}
	if float64(tokens) < probeShare*s.compressAt()*float64(llm.DefaultContextWindow) {
		return fallback
	}
	n, err := wr.ContextWindow(ctx)
	if err != nil || n <= 0 {
		return s.settleWindow(fallback)
	}
	s.toldWindow()
	if c := s.configuredWindow(); c > 0 && c < n {
		n = c
	}
	return s.settleWindow(n)
}

// settleWindow makes n the window for the rest of the session, unless it
// is already smaller.
func (s *Session) settleWindow(n int) int {
	s.window.mu.Lock()
	defer s.window.mu.Unlock()
	if s.window.size == 0 || n < s.window.size {
		s.window.size = n
	}
	return s.window.size
}

// toldWindow notes that the server said the window.
func (s *Session) toldWindow() {
	s.window.mu.Lock()
	s.window.told = true
	s.window.mu.Unlock()
}

// windowGuessed says the window is mm's default: neither the server nor
// the configuration gave it. A request that seems too large for a guess is
// sent all the same: the server knows better, and refuses it if need be.
func (s *Session) windowGuessed() bool {
	s.window.mu.Lock()
	told := s.window.told
	s.window.mu.Unlock()
	return !told && s.configuredWindow() == 0
}

// compressAt is the share of the window past which the history is
// compressed.
func (s *Session) compressAt() float64 {
	if s.cfg.CompressAt > 0 {
		return s.cfg.CompressAt
	}
	return mmconfigs.DefaultCompressAt
}
