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
	// ratio is the server's tokens per token of mm's estimate, the
	// largest its counts showed: what scales every estimate (under
	// minScaled it does not: a tokenizer thriftier than the estimate
	// leaves it as it is, on the safe side).
	ratio float64
	// tools is the estimate of the tools the counted request offered: a
	// count after the tools changed does not calibrate.
	tools int
}

// maxRatio bounds the scaling of estimates: a tokenizer of one token a
// byte (the test models' byte-level vocabulary) is 4; more is a count
// that went wrong.
const maxRatio = 8

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
		// The contexts the count held were the turn's; the next request
		// holds this turn's.
		return w.exact - scaleBy(w.scale(), w.contexts) + scaleBy(w.scale(), contexts+estimateTokens(hist[w.covered:]))
	}
	return scaleBy(w.scale(), estimateTokens([]llm.Message{{Role: llm.RoleSystem, Content: s.system}})+
		estimateSpecs(specs)+estimateTokens(hist)+contexts)
}

// scaleBy is the estimate n in the server's tokens, at ratio r (0: none known).
func scaleBy(r float64, n int) int {
	if r <= 1 {
		return n
	}
	return int(float64(n)*r + 0.999)
}

// scale is the ratio that scales estimates (w.mu held).
func (w *window) scale() float64 {
	if w.ratio < minScaled {
		return 1
	}
	return w.ratio
}

// minScaled is the least ratio that scales the estimates. Under it, the
// estimate is off by what chat templates and code make of text, which the
// margin of compressAt absorbs (and a refusal corrects); at twice or more
// — text in Chinese or Japanese, a tokenizer of a token a byte — a server
// that truncates in silence would be passed long before mm compressed.
const minScaled = 2

// tokenRatio is the server's tokens per estimated token, 1 when not known
// or under minScaled.
func (s *Session) tokenRatio() float64 {
	s.window.mu.Lock()
	defer s.window.mu.Unlock()
	return s.window.scale()
}

// countedCall keeps the server's count of the request just answered, whose
// reply is now the end of the history.
// The count also calibrates the estimate: what joined the history since
// the previous count (a question, a reply, tool results), as estimated,
// against the server's tokens for it — the same kind of text the next
// estimate is of. specs are the tools the request offered.
func (s *Session) countedCall(u llm.Usage, specs []llm.ToolSpec) {
	if u.InputTokens <= 0 {
		return
	}
	s.mu.Lock()
	hist := s.history
	contexts := s.contextTokens()
	s.mu.Unlock()
	n := len(hist)
	var last llm.Message
	if n > 0 {
		last = hist[n-1]
	}
	exact, tools := u.InputTokens+u.OutputTokens, estimateSpecs(specs)
	w := &s.window
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.valid && tools == w.tools && w.covered > 0 && w.covered <= n && sameMessage(hist[w.covered-1], w.lastCounted) {
		if grown := estimateTokens(hist[w.covered:]); grown >= minCalibration && exact > w.exact {
			// The largest ratio seen: an estimate too high only
			// compresses a little early, one too low lets the server cut.
			w.ratio = min(maxRatio, max(w.ratio, float64(exact-w.exact)/float64(grown)))
		}
	}
	w.exact, w.covered, w.lastCounted, w.valid, w.tools = exact, n, last, n > 0, tools
	w.contexts = contexts
}

// minCalibration is the least estimate of new text that calibrates: below
// it, the chat template's framing of a message outweighs its text.
const minCalibration = 16

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

// windowSize is the model's window. The server is asked once a session, at the first request:
// a server that truncates what passes its window (Ollama drops the oldest
// messages, in silence) never refuses, so the window must be known before
// any request could pass it, and the servers answer from memory in a
// millisecond. The smaller of its answer and the configuration's governs
// (a person may keep requests smaller than the server allows; a server
// that lies is caught by its refusal, which says its real window).
func (s *Session) windowSize(ctx context.Context) int {
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
