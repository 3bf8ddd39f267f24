package orchestrator

import (
	"context"
	"strings"
	"sync"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// window is what a session knows of its model's context window and of the
// tokens its requests hold: the estimator the turn asks before each model
// call whether the request fits (compress.go), and tells after it what the
// server counted. The server's own count (usage) of the last request and
// its reply is exact; only what joined the history since is estimated.
// It knows no session: it is given the request's parts (window_test.go).
type window struct {
	// configured is the window the configuration gives: the agent's own
	// contextWindow, else its provider's; 0 when neither says.
	configured int
	// fallback is the window when the server does not say: configured,
	// else the provider's default (llm.DefaultWindowFor).
	fallback int
	// compressAt is the share of the window past which the history is
	// compressed (compressAt:, else mmconfigs.DefaultCompressAt).
	compressAt float64

	mu sync.Mutex
	// size is the window in tokens once settled; 0 while not known.
	size int
	// serverSaid says the server said the window (its answer, or its
	// refusal of a request over it).
	serverSaid bool
	// count is the server's count of the last request and its reply; nil
	// when there is none (no call yet, a server that sends no usage, a
	// history replaced since).
	count *serverCount
	// ratio is the server's tokens per token of mm's estimate, the
	// largest its counts showed: what scales every estimate (under
	// minScaled it does not: a tokenizer thriftier than the estimate
	// leaves it as it is, on the safe side).
	ratio float64
	// base is the server's measure of what every request holds besides
	// the history — the system prompt and the tools as its chat template
	// renders them — nil before a count (window_base.go).
	base *baseMeasure
}

// serverCount is the server's count of one request and its reply.
type serverCount struct {
	// tokens is the count: the request's input tokens and the reply's.
	tokens int
	// messages is how many messages of the history the request and its
	// reply were (with the system prompt and the tools): history[:messages];
	// last is history[messages-1], to tell the history is still the one
	// counted.
	messages int
	last     llm.Message
	// contexts is the estimate of the hooks' contexts the request held:
	// they were its turn's, and are not in the requests of the next.
	contexts int
	// tools is the estimate of the tools the request offered: a count
	// after the tools changed does not calibrate.
	tools int
}

// newWindow is the window of a session of cfg running the model ref,
// nothing known of the server yet.
func newWindow(cfg *mmconfigs.Config, ref string) *window {
	w := &window{configured: cfg.ContextWindow, compressAt: cfg.CompressAt}
	if w.configured <= 0 {
		provider, _, _ := strings.Cut(ref, "/")
		w.configured = cfg.Providers[provider].ContextWindow
	}
	w.fallback = w.configured
	if w.fallback <= 0 {
		w.fallback = llm.DefaultWindowFor(ref)
	}
	if w.compressAt <= 0 {
		w.compressAt = mmconfigs.DefaultCompressAt
	}
	return w
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

// estimateBase is the estimate of what every request holds besides the
// history: the system prompt and the tools.
func estimateBase(system string, specs []llm.ToolSpec) int {
	return estimateTokens([]llm.Message{{Role: llm.RoleSystem, Content: system}}) + estimateSpecs(specs)
}

// requestTokens is how many tokens the next request holds — the system
// prompt, the tools specs, the history hist, and the turn's contexts,
// estimated at contexts: the server's count of the last request and its
// reply, plus the estimate of what joined the history since; the estimate
// of all of it when there is no count.
func (w *window) requestTokens(system string, specs []llm.ToolSpec, hist []llm.Message, contexts int) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	if c := w.count; c != nil && c.covers(hist) {
		// The contexts the count held were the turn's; the next request
		// holds this turn's.
		return c.tokens - scaleBy(w.scale(), c.contexts) + scaleBy(w.scale(), contexts+estimateTokens(hist[c.messages:]))
	}
	return scaleBy(w.scale(), w.baseLocked(system, specs)+estimateTokens(hist)+contexts)
}

// covers says hist still begins with the messages c counted: whoever
// replaced the history, its count is of another.
func (c *serverCount) covers(hist []llm.Message) bool {
	return c.messages <= len(hist) && sameMessage(hist[c.messages-1], c.last)
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
func (w *window) tokenRatio() float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.scale()
}

// counted keeps the server's count u of the request just answered, whose
// reply is now the end of the history hist; specs are the tools it
// offered, contexts the estimate of its turn's contexts.
// The count also calibrates the estimate: what joined the history since
// the previous count (a question, a reply, tool results), as estimated,
// against the server's tokens for it — the same kind of text the next
// estimate is of.
func (w *window) counted(u llm.Usage, system string, specs []llm.ToolSpec, hist []llm.Message, contexts int) {
	if u.InputTokens <= 0 {
		return
	}
	n := len(hist)
	next := &serverCount{tokens: u.InputTokens + u.OutputTokens, messages: n, contexts: contexts, tools: estimateSpecs(specs)}
	w.mu.Lock()
	defer w.mu.Unlock()
	if n > 0 {
		// The request was the history but its reply.
		w.measure(u.InputTokens, estimateBase(system, specs), estimateTokens(hist[:n-1])+contexts)
	}
	if c := w.count; c != nil && next.tools == c.tools && c.covers(hist) {
		if grown := estimateTokens(hist[c.messages:]); grown >= minCalibration && next.tokens > c.tokens {
			// The largest ratio seen: an estimate too high only
			// compresses a little early, one too low lets the server cut.
			w.ratio = min(maxRatio, max(w.ratio, float64(next.tokens-c.tokens)/float64(grown)))
		}
	}
	w.count = nil
	if n > 0 {
		next.last = hist[n-1]
		w.count = next
	}
}

// minCalibration is the least estimate of new text that calibrates: below
// it, the chat template's framing of a message outweighs its text.
const minCalibration = 16

// sameMessage says a and b are one message: a check that the history the
// server counted is still there (whoever replaced it).
func sameMessage(a, b llm.Message) bool {
	return a.Role == b.Role && a.Content == b.Content && a.ToolCallID == b.ToolCallID && len(a.ToolCalls) == len(b.ToolCalls)
}

// forget drops the server's count: the history it counted is gone.
func (w *window) forget() {
	w.mu.Lock()
	w.count = nil
	w.mu.Unlock()
}

// sizeOf is the model's window. The server (reader; nil when it cannot
// say) is asked once a session, at the first request: a server that
// truncates what passes its window (Ollama drops the oldest messages, in
// silence) never refuses, so the window must be known before any request
// could pass it, and the servers answer from memory in a millisecond. The
// smaller of its answer and the configuration's governs (a person may keep
// requests smaller than the server allows; a server that lies is caught by
// its refusal, which says its real window).
func (w *window) sizeOf(ctx context.Context, reader llm.WindowReader) int {
	w.mu.Lock()
	size := w.size
	w.mu.Unlock()
	if size > 0 {
		return size
	}
	if reader == nil {
		return w.settle(w.fallback)
	}
	n, err := reader.ContextWindow(ctx)
	if err != nil || n <= 0 {
		return w.settle(w.fallback)
	}
	w.said()
	if c := w.configured; c > 0 && c < n {
		n = c
	}
	return w.settle(n)
}

// settle makes n the window for the rest of the session, unless it is
// already smaller, and returns the window.
func (w *window) settle(n int) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.size == 0 || n < w.size {
		w.size = n
	}
	return w.size
}

// said notes that the server said the window.
func (w *window) said() {
	w.mu.Lock()
	w.serverSaid = true
	w.mu.Unlock()
}

// guessed says the window is mm's default: neither the server nor the
// configuration gave it. A request that seems too large for a guess is
// sent all the same: the server knows better, and refuses it if need be.
func (w *window) guessed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return !w.serverSaid && w.configured == 0
}
