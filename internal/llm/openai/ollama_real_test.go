package openai

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/ollamatest"
)

// These tests talk to a real Ollama (internal/ollamatest; build it with
// test/ollama/build.sh). Its models have random weights: what they say is
// noise, what the server does is Ollama's.

// realOllama starts one server with the models the tests share: tiny (a
// template without tools, num_ctx 1024), tiny-tools (with tools), and
// tiny-json (room for a structured answer).
func realOllama(t *testing.T) *ollamatest.Server {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a real Ollama")
	}
	s := ollamatest.Start(t)
	s.Create(t, ollamatest.Model{Name: "tiny", NumCtx: 1024, NumPredict: 16})
	s.Create(t, ollamatest.Model{Name: "tiny-tools", Tools: true, NumCtx: 1024, NumPredict: 16})
	s.Create(t, ollamatest.Model{Name: "tiny-json", NumCtx: 1024, NumPredict: 400})
	return s
}

// ollamaAt is the model name served by s, and the lines it notified.
func ollamaAt(t *testing.T, s *ollamatest.Server, name string) (llm.Model, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var lines []string
	m, err := New("ollama/"+name, Options{
		Getenv: func(k string) string {
			if k == "OLLAMA_HOST" {
				return s.Host
			}
			return ""
		},
		Notify: func(l string) { mu.Lock(); lines = append(lines, l); mu.Unlock() },
	})
	if err != nil {
		t.Fatal(err)
	}
	return m, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), lines...) }
}

var readTool = []llm.ToolSpec{{Name: "read_file", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}}

func TestRealOllama(t *testing.T) {
	s := realOllama(t)
	ctx := context.Background()
	hi := llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}, Tools: readTool}

	t.Run("stream and usage", func(t *testing.T) {
		m, notes := ollamaAt(t, s, "tiny-tools")
		var streamed strings.Builder
		reply, err := m.Stream(ctx, hi, func(p string) { streamed.WriteString(p) })
		if err != nil {
			t.Fatal(err)
		}
		if reply.Content != streamed.String() {
			t.Errorf("reply %q, but the pieces streamed make %q", reply.Content, streamed.String())
		}
		loads := s.CacheLoads()
		if len(loads) == 0 {
			t.Fatal("the server's log has no loading cache slot line")
		}
		last := loads[len(loads)-1]
		if reply.Usage.InputTokens != last.Prompt || reply.Usage.OutputTokens < 1 || reply.Usage.OutputTokens > 16 {
			t.Errorf("usage %+v; the server's log says the prompt held %d tokens, and num_predict is 16", reply.Usage, last.Prompt)
		}
		if reply.FinishReason != "stop" && reply.FinishReason != "length" {
			t.Errorf("finish reason %q", reply.FinishReason)
		}
		if n := notes(); len(n) != 0 {
			t.Errorf("a model with tools was told %q", n)
		}
	})

	t.Run("a model without tools", func(t *testing.T) {
		m, notes := ollamaAt(t, s, "tiny")
		refusedBefore := strings.Count(s.Log(), "| 400 |")
		for i := range 2 {
			if _, err := m.Stream(ctx, hi, nil); err != nil {
				t.Fatalf("call %d: %v", i+1, err)
			}
		}
		want := []string{"tiny has no tool support on this server: running without tools"}
		if got := notes(); !equalLines(got, want) {
			t.Errorf("told %q, want %q", got, want)
		}
		if n := strings.Count(s.Log(), "| 400 |") - refusedBefore; n != 1 {
			t.Errorf("the server refused %d requests, want 1: the first, and never again", n)
		}
		if llm.ReadsToolSpecs(m) || llm.TakesTools(m) {
			t.Error("the model still takes tools after the server refused them")
		}
	})

	t.Run("a model the server does not have", func(t *testing.T) {
		m, _ := ollamaAt(t, s, "qwen3:8")
		_, err := m.Stream(ctx, hi, nil)
		want := `ollama has no model "qwen3:8", it has: tiny:latest, tiny-json:latest, tiny-tools:latest` // closest to the name first
		if err == nil || err.Error() != want {
			t.Errorf("error %v, want %s", err, want)
		}
	})

	t.Run("structured output through the server's grammar", func(t *testing.T) {
		m, _ := ollamaAt(t, s, "tiny-json")
		schema := `{"type":"object","properties":{"ok":{"type":"boolean"},"pick":{"enum":["red","green"]}},"required":["ok","pick"],"additionalProperties":false}`
		for i := range 3 {
			reply, err := m.Stream(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "answer"}},
				Format: &llm.JSONSchemaFormat{Name: "answer", Schema: json.RawMessage(schema), Strict: true}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var v struct {
				OK   *bool   `json:"ok"`
				Pick *string `json:"pick"`
			}
			dec := json.NewDecoder(strings.NewReader(reply.Content))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&v); err != nil || v.OK == nil || v.Pick == nil || (*v.Pick != "red" && *v.Pick != "green") {
				t.Errorf("answer %d, from a random model held to the schema: %q (%v)", i+1, reply.Content, err)
			}
		}
	})

	t.Run("context window from /api/show, then /api/ps", func(t *testing.T) {
		s.Create(t, ollamatest.Model{Name: "tiny-default", NumPredict: 4})
		for _, tc := range []struct {
			name string
			want int
		}{{"tiny-json", 1024}, {"tiny-default", 4096}} {
			m, _ := ollamaAt(t, s, tc.name)
			wr := m.(llm.WindowReader)
			// Before any request the model is not loaded: /api/show says.
			if strings.Contains(psOf(t, s), tc.name) && tc.name == "tiny-default" {
				t.Fatalf("%s is loaded before its first request", tc.name)
			}
			if n, err := wr.ContextWindow(ctx); n != tc.want || err != nil {
				t.Errorf("%s before loading: window %d (%v), want %d", tc.name, n, err, tc.want)
			}
			if _, err := m.Stream(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "x"}}}, nil); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(psOf(t, s), `"context_length":`+itoa(tc.want)) {
				t.Errorf("/api/ps after loading %s: %s", tc.name, psOf(t, s))
			}
			if n, err := wr.ContextWindow(ctx); n != tc.want || err != nil {
				t.Errorf("%s loaded: window %d (%v), want %d", tc.name, n, err, tc.want)
			}
		}
	})

	t.Run("a cancelled turn stops the server's generation", func(t *testing.T) {
		s.Create(t, ollamatest.Model{Name: "big-long", NumCtx: 8192, NumPredict: 8000, Shape: ollamatest.Big})
		m, _ := ollamaAt(t, s, "big-long")
		// Each call is cancelled at its first piece of text. The runner
		// says nothing when a client leaves mid-reply, but the next
		// request's slot shows it: the cache held the first prompt and
		// the few tokens written before the stop, not 8,000. A random
		// model ends on its end token by chance (one in 261 a token): a
		// reply that ended before the cancel is asked again.
		cancelled := 0
		for attempt := 0; cancelled < 2 && attempt < 6; attempt++ {
			ctx, cancel := context.WithCancel(ctx)
			var once sync.Once
			_, err := m.Stream(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "go on"}}}, func(string) { once.Do(cancel) })
			cancel()
			switch {
			case err == nil:
				t.Logf("attempt %d ended before the cancel", attempt+1)
				cancelled = 0
			case !errors.Is(err, context.Canceled):
				t.Fatalf("error %v, want one that wraps context.Canceled", err)
			default:
				cancelled++
			}
		}
		if cancelled < 2 {
			t.Fatal("the replies kept ending before the cancel")
		}
		loads := s.CacheLoads()
		last := loads[len(loads)-1]
		if written := last.Cached - last.Prompt; written > 200 {
			t.Errorf("the slot held %d tokens written after the prompt when the next request came: the cancelled generation went on (%+v)", written, last)
		} else {
			t.Logf("the cancelled reply had written %d tokens of num_predict 8000", written)
		}
	})
}

// psOf is GET /api/ps.
func psOf(t *testing.T, s *ollamatest.Server) string {
	t.Helper()
	var v json.RawMessage
	m := &openAIModel{provider: "ollama", baseURL: s.URL + "/v1", client: defaultHTTPClient(), getenv: func(string) string { return "" }}
	if err := m.probe(context.Background(), "GET", "/api/ps", nil, &v); err != nil {
		t.Fatal(err)
	}
	return string(v)
}

func equalLines(a, b []string) bool {
	return strings.Join(a, "\n") == strings.Join(b, "\n") && len(a) == len(b)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
