package openai

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
)

// lines records what a model tells the person (Options.Notify).
type lines struct {
	mu  sync.Mutex
	got []string
}

func (l *lines) add(s string) { l.mu.Lock(); l.got = append(l.got, s); l.mu.Unlock() }

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.got, "\n")
}

// TestServerNumbersOutOfRange: a number a server sends past mm's bound is
// not taken, and is one line naming the server, the request and the field,
// said once; never a panic (a total_slots of 10^18 made a slice that long)
// nor a huge allocation (3·10^9 slots asked for 24 GB).
func TestServerNumbersOutOfRange(t *testing.T) {
	for _, tc := range []struct {
		name, provider, method, path, body string
		wantWindow                         int
		wantSlot                           bool
		wantLines                          string
	}{
		{name: "total_slots 10^18", provider: "llamacpp", method: "GET", path: "/props",
			body:       `{"default_generation_settings":{"n_ctx":8192},"total_slots":1000000000000000000}`,
			wantWindow: 8192,
			wantLines:  "llamacpp: GET /props: total_slots 1000000000000000000 is out of range (0 to 1024): mm leaves each request's slot to the server; check its --parallel"},
		{name: "total_slots 3·10^9", provider: "llamacpp", method: "GET", path: "/props",
			body:       `{"default_generation_settings":{"n_ctx":8192},"total_slots":3000000000}`,
			wantWindow: 8192,
			wantLines:  "llamacpp: GET /props: total_slots 3000000000 is out of range (0 to 1024): mm leaves each request's slot to the server; check its --parallel"},
		{name: "total_slots 1e18, not a whole number in JSON", provider: "llamacpp", method: "GET", path: "/props",
			body:       `{"default_generation_settings":{"n_ctx":8192},"total_slots":1e18}`,
			wantWindow: 8192,
			wantLines:  "llamacpp: GET /props: total_slots 1e18 is not a whole number mm takes: mm goes on without it"},
		{name: "total_slots at the bound", provider: "llamacpp", method: "GET", path: "/props",
			body: `{"default_generation_settings":{"n_ctx":8192},"total_slots":1024}`, wantWindow: 8192, wantSlot: true},
		{name: "n_ctx 2^63-1", provider: "llamacpp", method: "GET", path: "/props",
			body:      `{"default_generation_settings":{"n_ctx":9223372036854775807},"total_slots":2}`,
			wantSlot:  true,
			wantLines: "llamacpp: GET /props: default_generation_settings.n_ctx 9223372036854775807 is out of range (0 to 67108864): mm does not take it: set contextWindow in the configuration"},
		{name: "ollama context_length", provider: "ollama", method: "GET", path: "/api/ps",
			body:      `{"models":[{"name":"m","model":"m","context_length":100000000000}]}`,
			wantLines: "ollama: GET /api/ps: context_length 100000000000 is out of range (0 to 67108864): mm does not take it: set contextWindow in the configuration"},
		{name: "ollama num_ctx and context_length", provider: "ollama", method: "POST", path: "/api/show",
			body: `{"parameters":"num_ctx 9999999999999","model_info":{"general.architecture":"llama","llama.context_length":-5}}`, wantWindow: 4096,
			wantLines: "ollama: POST /api/show: num_ctx 9999999999999 is out of range (0 to 67108864): mm does not take it: set contextWindow in the configuration\n" +
				"ollama: POST /api/show: model_info.llama.context_length -5 is out of range (0 to 67108864): mm does not take it: set contextWindow in the configuration"},
		{name: "lm studio loaded_context_length", provider: "lmstudio", method: "GET", path: "/api/v0/models",
			body:      `{"data":[{"id":"m","state":"loaded","loaded_context_length":4611686018427387904}]}`,
			wantLines: "lmstudio: GET /api/v0/models: loaded_context_length 4611686018427387904 is out of range (0 to 67108864): mm does not take it: set contextWindow in the configuration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var asked []string
			srv := serveWindow(t, tc.method, tc.path, tc.body, &asked)
			var told lines
			m, err := New(tc.provider+"/m", Options{Providers: map[string]Provider{tc.provider: {BaseURL: srv.URL + "/v1"}},
				Place: Place{Asked: []string{"expert"}}, Notify: told.add})
			if err != nil {
				t.Fatal(err)
			}
			om := m.(*openAIModel)
			for range 2 { // told once
				if n, _ := om.ContextWindow(context.Background()); n != tc.wantWindow {
					t.Errorf("window %d, want %d", n, tc.wantWindow)
				}
				if slot := om.idSlot(context.Background()); (slot != nil) != tc.wantSlot {
					t.Errorf("slot %v, want one: %v", slot, tc.wantSlot)
				}
			}
			if got := told.String(); got != tc.wantLines {
				t.Errorf("told\n%s\nwant\n%s", got, tc.wantLines)
			}
		})
	}
}

// TestUsageOutOfRange: token counts and times of a reply past mm's bounds
// are dropped, each said once per model in a line naming the field.
func TestUsageOutOfRange(t *testing.T) {
	last := `{"choices":[],"usage":{"prompt_tokens":9223372036854775807,"completion_tokens":-3,"prompt_tokens_details":{"cached_tokens":70000000}},"timings":{"cache_n":9223372036854775807,"predicted_ms":1e300}}`
	body := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: " + last +
		"\n\ndata: {\"choices\":[],\"usage\":{\"completion_tokens\":1e18}}\n\ndata: [DONE]\n\n"
	srv := httptest.NewServer(serveStream([]byte(body)))
	defer srv.Close()
	var told lines
	m, _ := New("llamacpp/qwen3", Options{Providers: map[string]Provider{"llamacpp": {BaseURL: srv.URL + "/v1"}}, Notify: told.add})
	for range 2 {
		r, err := m.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Usage != (llm.Usage{}) {
			t.Errorf("usage %+v, want none", r.Usage)
		}
	}
	want := strings.Join([]string{
		"llamacpp: the reply's usage: prompt_tokens 9223372036854775807 is out of range (0 to 67108864): mm goes on without it",
		"llamacpp: the reply's usage: completion_tokens -3 is out of range (0 to 67108864): mm goes on without it",
		"llamacpp: the reply's usage: prompt_tokens_details.cached_tokens 70000000 is out of range (0 to 67108864): mm goes on without it",
		"llamacpp: the reply's timings: predicted_ms 1e+300 is out of range (0 to 86400000): mm goes on without it",
		"llamacpp: the reply's timings: cache_n 9223372036854775807 is out of range (0 to 67108864): mm goes on without it",
		"llamacpp: the reply's chunk: usage.completion_tokens 1e18 is not a whole number mm takes: mm goes on without it",
	}, "\n")
	if got := told.String(); got != want {
		t.Errorf("told\n%s\nwant\n%s", got, want)
	}
}

// TestRefusalCountsOutOfRange: the counts of a refusal for a request over
// the window are dropped when out of range; the refusal stands.
func TestRefusalCountsOutOfRange(t *testing.T) {
	for _, body := range []string{
		`{"error":{"type":"exceed_context_size_error","message":"too long","n_prompt_tokens":9223372036854775807,"n_ctx":-1}}`,
		`{"error":"maximum context length is 99999999999999999999999 tokens"}`,
	} {
		e := contextTooLong("llamacpp", "HTTP 400", []byte(body))
		if e == nil || e.PromptTokens != 0 || e.Window != 0 {
			t.Errorf("%s: %+v, want a refusal without counts", body, e)
		}
	}
}
