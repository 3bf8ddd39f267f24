package openai

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llamatest"
	"github.com/mm-agent/mm/internal/llm"
)

// fakeOllama answers as an Ollama with the models named, each with the
// capabilities given: GET /api/version, /api/tags, /api/ps, /v1/models,
// POST /api/show, and a chat completion for a model it lacks refused as
// Ollama refuses it.
func fakeOllama(t *testing.T, caps map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		var names []string
		for n := range caps {
			names = append(names, n)
		}
		switch r.Method + " " + r.URL.Path {
		case "GET /api/version":
			io.WriteString(w, `{"version":"0.12.6"}`)
		case "GET /api/ps":
			io.WriteString(w, `{"models":[]}`)
		case "GET /api/tags":
			io.WriteString(w, `{"models":[{"name":"`+strings.Join(names, `"},{"name":"`)+`"}]}`)
		case "GET /v1/models":
			io.WriteString(w, `{"object":"list","data":[{"id":"`+strings.Join(names, `"},{"id":"`)+`"}]}`)
		case "POST /api/show":
			b, _ := io.ReadAll(r.Body)
			for n, c := range caps {
				if strings.Contains(string(b), `"`+n+`"`) || strings.Contains(string(b), `"`+strings.TrimSuffix(n, ":latest")+`"`) {
					io.WriteString(w, `{"parameters":"num_ctx 2048","model_info":{"general.architecture":"qwen3","qwen3.context_length":40960},"capabilities":[`+c+`]}`)
					return
				}
			}
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":"model not found"}`)
		case "POST /v1/chat/completions":
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":{"message":"model 'nope' not found","type":"api_error","param":null,"code":null}}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestOllamaUnderAnotherName: a provider of another name pointing at an
// Ollama is read as the ollama provider is, by what the server answers:
// its window, its models (a missing one with the list and the pull), its
// tool support, the hand-off advice.
func TestOllamaUnderAnotherName(t *testing.T) {
	srv := fakeOllama(t, map[string]string{"qwen3:8b": `"completion","tools"`, "tiny:latest": `"completion"`})
	model := func(name string) llm.Model {
		m, err := New("box/"+name, Options{Providers: map[string]Provider{"box": {BaseURL: srv.URL + "/v1"}}})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	ctx := context.Background()
	if n, err := model("qwen3:8b").(llm.WindowReader).ContextWindow(ctx); n != 2048 || err != nil {
		t.Errorf("window %d, %v; want Ollama's num_ctx, 2048", n, err)
	}
	if err := CheckServes(ctx, model("qwen3:8b")); err != nil {
		t.Errorf("a model it has, with tools: %v", err)
	}
	if err := CheckServes(ctx, model("tiny")); err == nil || err.Error() != "tiny has no tool support on this server (its capabilities in POST /api/show lack tools): mm runs it without tools, and the agent can only answer; pick a model whose ollama show lists tools" {
		t.Errorf("a model without tools (tiny: tiny:latest): %v", err)
	}
	want := `box has no model "nope", it has: qwen3:8b, tiny:latest; fetch it with: ollama pull nope`
	if err := CheckServes(ctx, model("nope")); err == nil || err.Error() != want {
		t.Errorf("check of a model it lacks: %v\nwant %s", err, want)
	}
	_, err := model("nope").Stream(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
	if want := `box has no model "nope", it has: qwen3:8b, tiny:latest`; err == nil || err.Error() != want {
		t.Errorf("a run on a model it lacks: %v\nwant %s", err, want)
	}
	if got := HandOffAdvice(ctx, "box/qwen3:8b", model("qwen3:8b")); !strings.HasPrefix(got, "box: a hand-off takes the asking agent's cache slot unless ollama serve runs with OLLAMA_NUM_PARALLEL=2") {
		t.Errorf("hand-off advice %q", got)
	}
	if loaded, err := model("qwen3:8b").(llm.LoadReader).Loaded(ctx); loaded || err != nil {
		t.Errorf("loaded %v, %v; want Ollama's /api/ps read: not loaded", loaded, err)
	}
}

// TestLlamaCppUnderAnotherName: a provider of another name pointing at a
// llama-server is read as llamacpp is: its one model under any name, its
// slots.
func TestLlamaCppUnderAnotherName(t *testing.T) {
	srv := llamatest.Start(llamatest.Options{NCtx: 4096})
	defer srv.Close()
	m, err := New("gpu/anything", Options{Providers: map[string]Provider{"gpu": {BaseURL: srv.URL}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := CheckServes(ctx, m); err != nil {
		t.Errorf("llama.cpp serves its model under any name: %v", err)
	}
	if got, want := HandOffAdvice(ctx, "gpu/anything", m), "gpu: a hand-off takes the asking agent's cache slot: llama-server at "+strings.TrimSuffix(srv.URL, "/v1")+" runs one slot; start it with --parallel 2 (or more), and mm gives each agent of a chain a slot of its own"; got != want {
		t.Errorf("hand-off advice\n%s\nwant\n%s", got, want)
	}
}

// TestAnyServerListsItsModels: a server of no kind mm knows that refuses
// a model lists what it has (GET /v1/models): sorted, the nearest first,
// at most maxListed, each name written out visibly.
func TestAnyServerListsItsModels(t *testing.T) {
	var ids []string
	for _, c := range "abcdefghijklmnopqrstuvwxy" {
		ids = append(ids, "m-"+string(c))
	}
	ids = append(ids, "evil\x1b]0;x\x07\u202e", "nop")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/models":
			io.WriteString(w, `{"object":"list","data":[`)
			for i, id := range ids {
				if i > 0 {
					io.WriteString(w, ",")
				}
				io.WriteString(w, `{"id":"`+strings.NewReplacer("\x1b", `\u001b`, "\x07", `\u0007`).Replace(id)+`"}`)
			}
			io.WriteString(w, `]}`)
		case "/v1/chat/completions":
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"object":"error","message":"The model `+"`nope`"+` does not exist.","type":"NotFoundError","param":null,"code":404}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	m, err := New("vllm/nope", Options{Providers: map[string]Provider{"vllm": {BaseURL: srv.URL + "/v1"}}})
	if err != nil {
		t.Fatal(err)
	}
	run := func() error {
		_, err := m.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
		var se *statusError
		if errors.As(err, &se) {
			t.Errorf("the refusal is left as it was: %v", err)
		}
		return err
	}
	want := `vllm has no model "nope", it has: nop, m-e, m-p, m-a, m-b, m-c, m-d, m-f, m-g, m-h, m-i, m-j, m-k, m-l, m-m, m-n, m-o, m-q, m-r, m-s and 7 more (vllm list)`
	if err := run(); err == nil || err.Error() != want {
		t.Errorf("a run on a model it lacks:\n%v\nwant\n%s", err, want)
	}
	ids = ids[len(ids)-2:]
	want = `vllm has no model "nope", it has: nop, evil\x1b]0;x\x07\u202e`
	if err := run(); err == nil || err.Error() != want {
		t.Errorf("a run on a model it lacks:\n%v\nwant\n%s", err, want)
	}
}
