package orchestrator

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/textcut"
)

// Compressed says the history was compressed to fit the model's context
// window (before a model call that would have passed compressAt, on
// /compact, or after the server refused a request as too long).
type Compressed struct {
	// Before and After are the request's tokens — system prompt, tools and
	// history — before and after: counted by the server where it did,
	// else estimated.
	Before, After int
	// Trimmed is how many tool outputs were cut; Summarised how many
	// messages a summary replaced.
	Trimmed, Summarised int
}

func (Compressed) event() {}

// Compressing says the model was asked to summarise the conversation, to
// compress it: a wait of a model call that streams nothing. Compressed,
// or the turn's end, closes it.
type Compressing struct{}

func (Compressing) event() {}

// Line is how every front end shows it:
// "⚙ context compressed: 14,200 → 2,100 tokens".
func (c Compressed) Line() string {
	return "⚙ context compressed: " + Thousands(c.Before) + " → " + Thousands(c.After) + " tokens"
}

// Thousands writes n with a comma between each group of three digits.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// The texts of a compression. They are fixed, so that the summary request
// and the history after it are the same every time (and in a test).
const (
	// summaryPrompt ends the summary request: the history's older part,
	// then this, in place of the turn's question.
	summaryPrompt = "[mm] The conversation above is about to be replaced by a summary, to fit the model's context window. " +
		"Write that summary for yourself: what the person asked and wants, what was done (commands run, files read or changed, by name), " +
		"what was found and decided, and what is still open. Keep names, paths, numbers and error messages exact. Plain text, no tool calls."
	// compressedNote opens the history after a summary: it stands for the
	// request of the summary, which follows as the assistant's answer.
	compressedNote = "[mm] The earlier part of this conversation was compressed to fit the model's context window; your summary of it follows."
)

// Trimming tool outputs: an output the model has read and that is longer
// than minTrimmed bytes keeps its first keptOfOutput characters and a note.
const (
	// minTrimmed: cutting a shorter output saves less than a hundred
	// tokens, and costs the model what it read.
	minTrimmed = 1024
	// keptOfOutput is a few lines: a listing's first entries, an error's
	// first line, enough for the model to know what it had.
	keptOfOutput = 240
)

// trimmedOutput is what stays of a cut tool output: its head, and a note
// saying what was cut.
func trimmedOutput(name, content string) string {
	head, _ := textcut.Runes(content, keptOfOutput)
	return fmt.Sprintf("%s\n[mm cut this %s output from %d bytes to the %d above to fit the model's context window; run the tool again if the rest is needed]",
		head, name, len(content), len(head))
}

// Summarising: the latest turns kept verbatim fill at most keepShare of
// the compression's target (the latest turn is always kept), and a
// compression summarises at most maxSummaries times.
const (
	// keepShare: half the target for the latest turns verbatim, half for
	// the summary and what comes next.
	keepShare = 0.5
	// maxSummaries bounds the model calls of one compression: a round
	// summarises what the one before could not fit in its request, and a
	// summary of a summary and nothing else is never asked for.
	maxSummaries = 4
	// targetShare of compressAt × window is what a compression brings the
	// request down to: well under the threshold, so that the next calls
	// only append, and reuse the server's cache, until the next one.
	targetShare = 0.6
)

// fitWindow compresses the history when the next request would pass
// compressAt of the model's window.
func (t *turn) fitWindow(ctx context.Context) error {
	tokens := t.requestTokens()
	size := t.s.windowSize(ctx)
	if float64(tokens) <= t.s.window.compressAt*float64(size) {
		return nil
	}
	// The server's count wins over the estimate (window_base.go).
	kept, ratio := t.countRequest(ctx, size)
	if kept {
		if tokens = t.requestTokens(); float64(tokens) <= t.s.window.compressAt*float64(size) {
			return nil
		}
	}
	t.countRatio = ratio
	defer func() { t.countRatio = 0 }()
	_, err := t.compress(ctx, tokens, size, false)
	return err
}

// budget is what a compression works with, in estimate units: base is
// what every request holds besides the history (the system prompt, the
// tools, the turn's contexts); limit is compressAt of the window; target
// is what the compression brings the request down to.
type budget struct{ base, limit, target int }

// compress brings the history under the target: first it cuts the tool
// outputs the model has read, oldest first; then it has the model
// summarise the older turns, keeping the latest verbatim. all makes it do
// everything it can (/compact, a refused request). before is the request's
// tokens before. It reports whether the history changed, and fails when
// the request still cannot fit a window the server or the configuration
// gave (a guessed one is left to the server to judge).
func (t *turn) compress(ctx context.Context, before, size int, all bool) (bool, error) {
	s := t.s
	// Estimates are compared with the window in estimate units: the
	// server's tokens per estimated token (its last count) converts.
	r := max(s.window.tokenRatio(), t.countRatio)
	esize := int(float64(size) / r)
	b := budget{limit: int(s.window.compressAt * float64(esize))}
	b.target = int(targetShare * float64(b.limit))
	if all {
		b.target = 0
	}
	msgs := s.History()
	sent := t.sentHistory(msgs) // as the server has it in its cache
	// The turn's contexts are in every request of the turn, not in the
	// history a compression rewrites.
	b.base = s.window.baseEstimate(s.system, t.specs) + t.question.contextTokens()
	guessed := s.window.guessed()
	if err := tooLongMessage(msgs, b.base, size, r); err != nil && !guessed {
		return false, err
	}
	total := b.base + estimateTokens(msgs)
	trimmed := trimOutputs(msgs, &total, b.target, readOutputs(msgs))
	msgs, summarised, err := t.summariseOlder(ctx, msgs, sent, &total, b)
	if err != nil {
		// What was compressed before the failure is kept.
		return t.compressed(msgs, before, scaleBy(r, total), trimmed, summarised), err
	}
	if total > b.limit && !guessed {
		// Last resort: the outputs the model has not read yet.
		trimmed += trimOutputs(msgs, &total, b.target, len(msgs))
	}
	if trimmed == 0 && summarised == 0 {
		if total > esize && !guessed {
			return false, fmt.Errorf("the conversation needs about %s tokens, more than the model's context window of %s, and nothing in it can be compressed: start a new conversation (/clear), or give the model a larger window (contextWindow, or the server's context size)",
				Thousands(scaleBy(r, total)), Thousands(size))
		}
		return false, nil
	}
	t.compressed(msgs, before, scaleBy(r, total), trimmed, summarised)
	if total > esize && !guessed {
		return true, fmt.Errorf("the conversation still needs about %s tokens after compression, more than the model's context window of %s: start a new conversation (/clear), or give the model a larger window (contextWindow, or the server's context size)",
			Thousands(scaleBy(r, total)), Thousands(size))
	}
	return true, nil
}

// summariseOlder has the model summarise the older turns of msgs while
// the request is over the target, keeping the latest verbatim, in at most
// maxSummaries rounds; sent is msgs as the model read them. It returns
// msgs with each summary in place of what it summarised, and how many
// messages the summaries replaced; total is kept up to date. On an error,
// what the rounds before it compressed is returned with it.
func (t *turn) summariseOlder(ctx context.Context, msgs, sent []llm.Message, total *int, b budget) ([]llm.Message, int, error) {
	summarised := 0
	prompt := estimateMessage(llm.Message{Role: llm.RoleUser, Content: summaryPrompt})
	room := b.limit - b.base - prompt
	for round := 0; *total > b.target && round < maxSummaries; round++ {
		upto := summaryEnd(msgs, int(keepShare*float64(b.target)))
		if upto <= 0 {
			break
		}
		older := shrunk(msgs[:upto], room)
		for estimateTokens(older) > room {
			// Short messages, none to cut: this round summarises
			// fewer turns, the next one the rest.
			prev := turnStartBefore(msgs, upto)
			if prev <= 0 || (prev <= 2 && msgs[0].Content == compressedNote) {
				break
			}
			upto, older = prev, shrunk(msgs[:prev], room)
		}
		if round == 0 && b.base+estimateTokens(sent[:upto])+prompt <= b.limit {
			// The messages as they were sent, outputs uncut: the server
			// reads them from its cache, only the prompt is new.
			older = sent[:upto]
		}
		summary, err := t.summarise(ctx, older)
		if err != nil {
			return msgs, summarised, err
		}
		msgs = append([]llm.Message{
			{Role: llm.RoleUser, Content: compressedNote},
			{Role: llm.RoleAssistant, Content: summary},
		}, msgs[upto:]...)
		t.question.summarised(upto)
		summarised += upto
		*total = b.base + estimateTokens(msgs)
	}
	return msgs, summarised, nil
}

// compressed makes msgs the history and says so, when anything was
// compressed; it reports whether it was.
func (t *turn) compressed(msgs []llm.Message, before, after, trimmed, summarised int) bool {
	if trimmed == 0 && summarised == 0 {
		return false
	}
	t.s.history.replace(msgs)
	t.s.sink.Emit(Compressed{Before: before, After: after, Trimmed: trimmed, Summarised: summarised})
	return true
}

// readOutputs is where the tool outputs the model has not read yet begin:
// those after the last assistant message.
func readOutputs(msgs []llm.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleAssistant {
			return i
		}
	}
	return 0
}

// trimOutputs cuts the long tool outputs of msgs[:end], oldest first, in
// place, until total (kept up to date) is at most target. It returns how
// many it cut.
func trimOutputs(msgs []llm.Message, total *int, target, end int) int {
	n := 0
	for i := 0; i < end && *total > target; i++ {
		m := &msgs[i]
		if m.Role != llm.RoleTool || len(m.Content) <= minTrimmed {
			continue
		}
		old := estimateMessage(*m)
		m.Content = trimmedOutput(m.Name, m.Content)
		*total -= old - estimateMessage(*m)
		n++
	}
	return n
}

// summaryEnd is where the part to summarise ends: at the start of a turn
// (a user message), keeping the latest turns that fit in keep — and the
// latest turn always. 0: there is nothing before the latest turn to
// summarise but the last summary.
func summaryEnd(msgs []llm.Message, keep int) int {
	var starts []int
	for i, m := range msgs {
		if m.Role == llm.RoleUser && i > 0 {
			starts = append(starts, i)
		}
	}
	if len(starts) == 0 {
		return 0
	}
	k := len(starts) - 1
	for k > 0 && estimateTokens(msgs[starts[k-1]:]) <= keep {
		k--
	}
	if starts[k] <= 2 && msgs[0].Content == compressedNote {
		return 0
	}
	return starts[k]
}

// turnStartBefore is the start of the last turn (a user message, not the
// first message) before end; 0 when there is none.
func turnStartBefore(msgs []llm.Message, end int) int {
	for i := end - 1; i > 0; i-- {
		if msgs[i].Role == llm.RoleUser {
			return i
		}
	}
	return 0
}

// shrunk is older cut to fit a summary request of at most budget tokens:
// the longest message cut to a quarter, again and again. Most of the time older
// fits as it is, and the request reuses the server's cache.
func shrunk(older []llm.Message, budget int) []llm.Message {
	if estimateTokens(older) <= budget {
		return older
	}
	out := slices.Clone(older)
	for estimateTokens(out) > budget {
		longest := 0
		for i := range out {
			if len(out[i].Content) > len(out[longest].Content) {
				longest = i
			}
		}
		m := &out[longest]
		if len(m.Content) <= minShrunk {
			break
		}
		head, _ := textcut.Runes(m.Content, len(m.Content)/4)
		m.Content = head + " […]"
	}
	return out
}

// minShrunk is the shortest message shrunk for a summary request: a
// shorter one is a few tokens, and cutting it saves nothing.
const minShrunk = 64

// summarise asks the model to summarise older, the first part of the
// history: the same system prompt, tools and messages as the requests that
// sent them (so that a local server reads them from its cache), then
// summaryPrompt. No hook runs on it.
func (t *turn) summarise(ctx context.Context, older []llm.Message) (string, error) {
	s := t.s
	msgs := make([]llm.Message, 0, len(older)+2)
	msgs = append(msgs, llm.Message{Role: llm.RoleSystem, Content: s.system})
	msgs = append(msgs, older...)
	msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: summaryPrompt})
	s.sink.Emit(Compressing{})
	sent := time.Now()
	reply, err := s.model.Stream(ctx, llm.Request{Messages: msgs, Tools: t.specs, Purpose: llm.PurposeSummary}, nil)
	t.addUsage(reply.Usage, time.Since(sent))
	if err != nil {
		return "", fmt.Errorf("compress the conversation: the summary request failed: %w", err)
	}
	summary := strings.TrimSpace(reply.Content)
	if summary == "" {
		return "", errors.New("compress the conversation: the model answered the summary request with no text; try /compact again, or /clear")
	}
	return summary, nil
}

// tooLongMessage is the error for a message the model has not read yet
// that alone, with the system prompt and the tools, is over the window:
// no compression can make it fit.
func tooLongMessage(msgs []llm.Message, base, size int, r float64) error {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role == llm.RoleAssistant {
			break
		}
		if m.Role != llm.RoleUser {
			continue // a tool output can be cut
		}
		if n := scaleBy(r, base+estimateMessage(m)); n > size {
			return fmt.Errorf("the question is about %s tokens (with the system prompt and the tools), more than the model's context window of %s: shorten it, or give the model a larger window (contextWindow, or the server's context size)",
				Thousands(n), Thousands(size))
		}
	}
	return nil
}

// compact is /compact: everything that can be compressed, now.
func (t *turn) compact(ctx context.Context) error {
	s := t.s
	if s.model == nil {
		err := errors.New("no model: set model: in the configuration, $MM_MODEL or --model")
		t.end("", err)
		return err
	}
	t.specs = s.toolSpecs()
	done, err := t.compress(ctx, t.requestTokens(), s.windowSize(ctx), true)
	err = describe(ctx, err)
	if err == nil && !done {
		s.sink.Emit(CommandReply{Command: CommandCompact, Text: "(nothing to compress)"})
	}
	t.end("", err)
	return err
}

// refusedTooLong answers a server's refusal of a request as over its
// window: the window is what the server says (or under what was sent),
// and the history is compressed all it can be, for one more try.
func (t *turn) refusedTooLong(ctx context.Context, refusal *llm.ContextTooLongError) error {
	sent := t.requestTokens()
	if refusal.PromptTokens > 0 {
		sent = refusal.PromptTokens
	}
	size := refusal.Window
	if size <= 0 {
		size = sent * 3 / 4
	}
	w := t.s.window
	w.said()
	size = w.settle(max(size, 1))
	_, err := t.compress(ctx, sent, size, true)
	return err
}
