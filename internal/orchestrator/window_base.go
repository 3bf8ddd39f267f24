package orchestrator

import (
	"context"
	"math"

	"github.com/mm-agent/mm/internal/llm"
)

// baseMeasure is the server's count of what every request holds besides
// the history: the system prompt and the tools, as the model's chat
// template renders them. A template may write the tools much shorter
// than their JSON (a line per tool) or longer; mm's estimate of them
// (estimateSpecs) cannot know, and with the tools of a session it is most
// of a first request. A count of a whole request, less mm's estimate of
// the history it held, measures it; the count whose history was the
// least of the request errs the least, and is kept.
type baseMeasure struct {
	// estimate is mm's estimate of the base measured (estimateBase): a
	// measure is of one system prompt and one set of tools.
	estimate int
	// tokens is the server's measure of it.
	tokens int
	// rest is mm's estimate of the rest of the request counted: its
	// history and the turn's contexts.
	rest int
}

// measure keeps what a server's count of a request of input tokens
// says of its base — mm's estimate of it base, of the rest of the
// request rest — when it is the first for that base, or its rest is
// smaller than the kept one's (w.mu held).
func (w *window) measure(input, base, rest int) {
	if b := w.base; b != nil && b.estimate == base && b.rest <= rest {
		return
	}
	w.base = &baseMeasure{estimate: base, tokens: max(0, input-scaleBy(w.scale(), rest)), rest: rest}
}

// baseLocked is the base of a request offering specs under system, in
// estimate units: the server's measure of it, converted at the ratio,
// once a count gave one for this base; else mm's estimate (w.mu held).
func (w *window) baseLocked(system string, specs []llm.ToolSpec) int {
	est := estimateBase(system, specs)
	if b := w.base; b != nil && b.estimate == est {
		return int(math.Ceil(float64(b.tokens) / w.scale()))
	}
	return est
}

// baseEstimate is baseLocked, for the compression's budget.
func (w *window) baseEstimate(system string, specs []llm.ToolSpec) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.baseLocked(system, specs)
}

// countedPrompt keeps the server's count n of the next request — the
// history hist whole, the turn's contexts estimated at contexts — as a
// count of the history, with no reply yet (llm.PromptCounter).
func (w *window) countedPrompt(n int, system string, specs []llm.ToolSpec, hist []llm.Message, contexts int) {
	if n <= 0 || len(hist) == 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.measure(n, estimateBase(system, specs), estimateTokens(hist)+contexts)
	w.count = &serverCount{tokens: n, messages: len(hist), last: hist[len(hist)-1], contexts: contexts, tools: estimateSpecs(specs)}
}

// covered says the server's last count covers hist: the next request is
// reckoned from it, not from the estimate of all of it.
func (w *window) covered(hist []llm.Message) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.count != nil && w.count.covers(hist)
}

// countRequest has the server count the next request, which mm's
// estimate says passes compressAt of the window size: a server that counts
// (llm.PromptCounter), a window it or the configuration gave, what no
// count covers yet (a question, tool outputs; the whole history after a
// compression) not alone over the window by the estimate; and only while
// the system prompt and the tools are not measured yet, or for a question
// that with them alone passes the threshold. A count under
// the threshold is kept, as the count of the history: the request goes as
// it is (kept). A count over it says how much dearer than estimated the
// text no count covered is: ratio, which the compression that follows
// reckons with, so that the question it judges is the server's size of
// it. A server that cuts what passes its window in silence (Ollama)
// counts what it kept: such a count is a floor.
func (t *turn) countRequest(ctx context.Context, size int) (kept bool, ratio float64) {
	s := t.s
	counter, ok := s.model.(llm.PromptCounter)
	if !ok || s.window.guessed() {
		return false, 0
	}
	hist := s.history.now()
	contexts := t.question.contextTokens()
	known, fresh := s.window.uncounted(s.system, t.specs, hist, contexts)
	r := s.window.tokenRatio()
	if scaleBy(r, fresh) > size {
		return false, 0 // over the window by the estimate alone
	}
	// Counting costs a round trip, and the server's reading of what it
	// has not cached: it is asked while the system prompt and the tools
	// are only estimated (a first question), and for a question that
	// with them alone passes the threshold (the refusal must be the
	// server's size of it). Past those, what joins the conversation is
	// estimated, its margin compressAt's.
	question := len(hist) > 0 && hist[len(hist)-1].Role == llm.RoleUser
	if s.window.measured(s.system, t.specs) &&
		!(question && float64(scaleBy(r, s.window.baseEstimate(s.system, t.specs)+fresh)) > s.window.compressAt*float64(size)) {
		return false, 0
	}
	n, err := counter.CountPrompt(ctx, llm.Request{Messages: t.requestMessages(), Tools: t.specs})
	if err != nil || n <= 0 {
		return false, 0
	}
	if float64(n) <= s.window.compressAt*float64(size) {
		s.window.countedPrompt(n, s.system, t.specs, hist, contexts)
		return true, 0
	}
	if fresh < minCalibration {
		return false, 0
	}
	return false, min(maxRatio, float64(n-known)/float64(fresh))
}

// uncounted splits the next request — system, tools offered specs,
// history hist, the turn's contexts — into what the server's counts know,
// in its tokens (known: the last count when it covers hist, else the
// measure or estimate of the base), and the estimate of the rest (fresh).
func (w *window) uncounted(system string, specs []llm.ToolSpec, hist []llm.Message, contexts int) (known, fresh int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if c := w.count; c != nil && c.covers(hist) {
		return c.tokens - scaleBy(w.scale(), c.contexts), contexts + estimateTokens(hist[c.messages:])
	}
	return scaleBy(w.scale(), w.baseLocked(system, specs)), contexts + estimateTokens(hist)
}

// measured says a server's count measured the base of a request offering
// specs under system.
func (w *window) measured(system string, specs []llm.ToolSpec) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.base != nil && w.base.estimate == estimateBase(system, specs)
}
