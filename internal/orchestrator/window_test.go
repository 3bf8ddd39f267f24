package orchestrator

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// msg is a message of n bytes of text: an estimate of n/4 tokens, and 4
// of framing.
func msg(role string, n int) llm.Message {
	return llm.Message{Role: role, Content: strings.Repeat("x", n)}
}

// TestWindowRequestTokens: the next request is the server's count of the
// last one and its reply, less the contexts that were its turn's, plus the
// estimate of what joined the history since and of this turn's contexts;
// with no count that covers the history, the estimate of all of it, scaled
// once the server's counts showed a tokenizer twice as dear or more.
func TestWindowRequestTokens(t *testing.T) {
	const system = "You are a test." // 8 tokens estimated
	q, a := msg(llm.RoleUser, 40), msg(llm.RoleAssistant, 8)
	counted := &serverCount{tokens: 500, messages: 2, last: a, contexts: 30}
	tests := []struct {
		name     string
		count    *serverCount
		ratio    float64
		hist     []llm.Message
		contexts int
		want     int
	}{
		{name: "no call yet: the estimate", hist: []llm.Message{q}, want: 8 + 14},
		{name: "no call yet, a turn's contexts", hist: []llm.Message{q}, contexts: 100, want: 8 + 14 + 100},
		{name: "the count, its contexts left to their turn", count: counted, hist: []llm.Message{q, a}, want: 500 - 30},
		{name: "the count and what joined since", count: counted, hist: []llm.Message{q, a, msg(llm.RoleUser, 400)}, contexts: 7, want: 500 - 30 + 104 + 7},
		{name: "a history replaced since: the estimate", count: counted, hist: []llm.Message{msg(llm.RoleUser, 40), msg(llm.RoleAssistant, 9)}, want: 8 + 14 + 7},
		{name: "a history shorter than the count: the estimate", count: counted, hist: []llm.Message{q}, want: 8 + 14},
		{name: "a dear tokenizer scales the estimate", ratio: 3, hist: []llm.Message{q}, want: 3 * (8 + 14)},
		{name: "a cheap one does not", ratio: 1.5, hist: []llm.Message{q}, want: 8 + 14},
		{name: "a dear tokenizer scales what joined since", count: counted, ratio: 2, hist: []llm.Message{q, a, msg(llm.RoleUser, 40)}, want: 500 - 60 + 28},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &window{count: tt.count, ratio: tt.ratio}
			if got := w.requestTokens(system, nil, tt.hist, tt.contexts); got != tt.want {
				t.Errorf("requestTokens = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestWindowCounted: a count replaces the one before; it calibrates the
// estimate when what joined the history since is long enough to tell, the
// tools are the same and the history is still the one counted, by the
// largest ratio seen, bounded by maxRatio; and it is dropped by forget.
func TestWindowCounted(t *testing.T) {
	q, a := msg(llm.RoleUser, 40), msg(llm.RoleAssistant, 8)
	long := msg(llm.RoleUser, 240) // 64 estimated
	tool := []llm.ToolSpec{{Name: "bash", Description: "runs a command"}}
	tests := []struct {
		name      string
		before    *serverCount
		ratio     float64
		u         llm.Usage
		specs     []llm.ToolSpec
		hist      []llm.Message
		wantRatio float64
		wantCount *serverCount
	}{
		{name: "the first count", u: llm.Usage{InputTokens: 100, OutputTokens: 5}, hist: []llm.Message{q, a},
			wantCount: &serverCount{tokens: 105, messages: 2, last: a}},
		{name: "no usage: the count before stays", before: &serverCount{tokens: 105, messages: 2, last: a}, hist: []llm.Message{q, a, long},
			wantCount: &serverCount{tokens: 105, messages: 2, last: a}},
		{name: "calibrates on what joined", before: &serverCount{tokens: 105, messages: 2, last: a}, u: llm.Usage{InputTokens: 297, OutputTokens: 0},
			hist: []llm.Message{q, a, long}, wantRatio: 3, wantCount: &serverCount{tokens: 297, messages: 3, last: long}},
		{name: "keeps the largest ratio", before: &serverCount{tokens: 105, messages: 2, last: a}, ratio: 5, u: llm.Usage{InputTokens: 297},
			hist: []llm.Message{q, a, long}, wantRatio: 5, wantCount: &serverCount{tokens: 297, messages: 3, last: long}},
		{name: "bounded by maxRatio", before: &serverCount{tokens: 105, messages: 2, last: a}, u: llm.Usage{InputTokens: 1105},
			hist: []llm.Message{q, a, long}, wantRatio: maxRatio, wantCount: &serverCount{tokens: 1105, messages: 3, last: long}},
		{name: "too little joined to tell", before: &serverCount{tokens: 105, messages: 2, last: a}, u: llm.Usage{InputTokens: 150},
			hist: []llm.Message{q, a, msg(llm.RoleUser, 8)}, wantCount: &serverCount{tokens: 150, messages: 3, last: msg(llm.RoleUser, 8)}},
		{name: "other tools", before: &serverCount{tokens: 105, messages: 2, last: a}, u: llm.Usage{InputTokens: 297}, specs: tool,
			hist: []llm.Message{q, a, long}, wantCount: &serverCount{tokens: 297, messages: 3, last: long, tools: estimateSpecs(tool)}},
		{name: "a history replaced since", before: &serverCount{tokens: 105, messages: 2, last: q}, u: llm.Usage{InputTokens: 297},
			hist: []llm.Message{q, a, long}, wantCount: &serverCount{tokens: 297, messages: 3, last: long}},
		{name: "an empty history keeps no count", before: &serverCount{tokens: 105, messages: 2, last: a}, u: llm.Usage{InputTokens: 20}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &window{count: tt.before, ratio: tt.ratio}
			w.counted(tt.u, "", tt.specs, tt.hist, 0)
			if w.ratio != tt.wantRatio {
				t.Errorf("ratio %v, want %v", w.ratio, tt.wantRatio)
			}
			switch {
			case (w.count == nil) != (tt.wantCount == nil):
				t.Errorf("count %+v, want %+v", w.count, tt.wantCount)
			case w.count != nil && (w.count.tokens != tt.wantCount.tokens || w.count.messages != tt.wantCount.messages ||
				!sameMessage(w.count.last, tt.wantCount.last) || w.count.tools != tt.wantCount.tools):
				t.Errorf("count %+v, want %+v", *w.count, *tt.wantCount)
			}
		})
	}
	w := &window{count: &serverCount{tokens: 105, messages: 2, last: a}}
	w.forget()
	if got, want := w.requestTokens("", nil, []llm.Message{q, a}, 0), estimateBase("", nil)+14+6; w.count != nil || got != want {
		t.Errorf("after forget: count %+v, %d tokens; want none, the estimate %d", w.count, got, want)
	}
}

// serverWindow is a server that says its window n, or err.
type serverWindow struct {
	n     int
	err   error
	asked int
}

func (s *serverWindow) ContextWindow(context.Context) (int, error) {
	s.asked++
	return s.n, s.err
}

// TestWindowSize: the server is asked once; the smaller of its answer and
// the configuration's governs; a server that does not say leaves the
// configuration's window, else the provider's default; a window settled
// only ever shrinks; the window is guessed when neither server nor
// configuration gave it.
func TestWindowSize(t *testing.T) {
	noServer := errors.New("no /props")
	tests := []struct {
		name    string
		config  func(*mmconfigs.Config)
		ref     string
		server  *serverWindow // nil: a model that cannot say
		want    int
		guessed bool
	}{
		{name: "the server says", ref: "llamacpp/m", server: &serverWindow{n: 8192}, want: 8192},
		{name: "the configuration is smaller", config: contextWindow(2048), ref: "llamacpp/m", server: &serverWindow{n: 8192}, want: 2048},
		{name: "the server is smaller", config: contextWindow(8192), ref: "llamacpp/m", server: &serverWindow{n: 2048}, want: 2048},
		{name: "the provider's window", config: func(c *mmconfigs.Config) {
			c.Providers = map[string]mmconfigs.Provider{"llamacpp": {ContextWindow: 3000}}
		}, ref: "llamacpp/m", server: &serverWindow{n: 8192}, want: 3000},
		{name: "no answer: the configuration's", config: contextWindow(6000), ref: "llamacpp/m", server: &serverWindow{err: noServer}, want: 6000},
		{name: "no answer: the default", ref: "llamacpp/m", server: &serverWindow{err: noServer}, want: llm.DefaultContextWindow, guessed: true},
		{name: "a model that cannot say: OpenAI's default", ref: "openai/gpt-4o", want: llm.DefaultWindowFor("openai/gpt-4o"), guessed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWindow(windowTestConfig(t, tt.config), tt.ref)
			var reader llm.WindowReader
			if tt.server != nil {
				reader = tt.server
			}
			for range 2 {
				if got := w.sizeOf(context.Background(), reader); got != tt.want {
					t.Errorf("sizeOf = %d, want %d", got, tt.want)
				}
			}
			if tt.server != nil && tt.server.asked != 1 {
				t.Errorf("the server was asked %d times, want once", tt.server.asked)
			}
			if w.guessed() != tt.guessed {
				t.Errorf("guessed %v, want %v", w.guessed(), tt.guessed)
			}
			if got := w.settle(tt.want + 1); got != tt.want {
				t.Errorf("settle(larger) = %d, want %d", got, tt.want)
			}
			if got := w.settle(tt.want - 1); got != tt.want-1 {
				t.Errorf("settle(smaller) = %d, want %d", got, tt.want-1)
			}
		})
	}
	w := newWindow(windowTestConfig(t, nil), "llamacpp/m")
	w.said() // a refusal said the window
	if w.guessed() {
		t.Error("a window the server said is not guessed")
	}
}

// TestNewWindowCompressAt: compressAt is the configuration's, else mm's
// default.
func TestNewWindowCompressAt(t *testing.T) {
	if got := newWindow(windowTestConfig(t, nil), "echo/x").compressAt; got != mmconfigs.DefaultCompressAt {
		t.Errorf("compressAt %v, want the default %v", got, mmconfigs.DefaultCompressAt)
	}
	if got := newWindow(windowTestConfig(t, func(c *mmconfigs.Config) { c.CompressAt = 0.5 }), "echo/x").compressAt; got != 0.5 {
		t.Errorf("compressAt %v, want 0.5", got)
	}
}

// windowTestConfig is mm's default configuration, as set changes it.
func windowTestConfig(t *testing.T, set func(*mmconfigs.Config)) *mmconfigs.Config {
	cfg := mmconfigs.Default(t.TempDir(), func(string) string { return "" })
	if set != nil {
		set(cfg)
	}
	return cfg
}

// contextWindow sets a configuration's contextWindow to n.
func contextWindow(n int) func(*mmconfigs.Config) {
	return func(c *mmconfigs.Config) { c.ContextWindow = n }
}
