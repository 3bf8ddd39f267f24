package openai

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
)

// The servers' answers, in the shapes their documentation gives (llama.cpp's
// tools/server/README.md for /props, Ollama's docs/api.md for /api/show, LM
// Studio's REST API v0 page for /api/v0/models; /api/ps as a recent Ollama answers it),
// cut to the fields around
// the ones read.
const (
	llamaProps = `{"default_generation_settings":{"id":0,"id_task":-1,"n_ctx":8192,"speculative":false,"is_processing":false,"params":{"n_predict":-1,"temperature":0.8}},"total_slots":1,"model_path":"/models/qwen3-8b-q4_k_m.gguf","chat_template":"{%- for message in messages %}…","modalities":{"vision":false,"audio":false},"build_info":"b6881-8b11deea4"}`
	// Ollama: a Modelfile that sets num_ctx, and a model trained on 128k.
	ollamaShowNumCtx = `{"modelfile":"FROM llama3.2\nPARAMETER num_ctx 8192","parameters":"num_ctx                        8192\nstop                           \"<|eot_id|>\"","template":"{{ .Prompt }}","details":{"parent_model":"","format":"gguf","family":"llama","families":["llama"],"parameter_size":"3.2B","quantization_level":"Q4_K_M"},"model_info":{"general.architecture":"llama","general.parameter_count":3212749888,"llama.attention.head_count":24,"llama.context_length":131072,"llama.embedding_length":3072},"capabilities":["completion","tools"],"modified_at":"2025-08-14T15:49:43.634137516-07:00"}`
	// Ollama: no num_ctx, a model trained on 128k: Ollama's default governs.
	ollamaShowDefault = `{"parameters":"stop                           \"<|im_end|>\"","details":{"family":"qwen3"},"model_info":{"general.architecture":"qwen3","qwen3.context_length":40960}}`
	// Ollama: a model trained on less than the default.
	ollamaShowSmall = `{"parameters":"","model_info":{"general.architecture":"phi","phi.context_length":2048}}`
	// Ollama's running models (GET /api/ps), each with the window it was
	// loaded with.
	ollamaPS       = `{"models":[{"name":"qwen2.5:0.5b","model":"qwen2.5:0.5b","size":492523008,"digest":"a8b0c51577010a279d933d14c2a8ab4b268079d44c5c8830c0a93900f1827c67","details":{"parent_model":"","format":"gguf","family":"qwen2","families":["qwen2"],"parameter_size":"494.03M","quantization_level":"Q4_K_M"},"expires_at":"2026-11-02T08:15:34.383753787Z","size_vram":0,"context_length":16384},{"name":"llama3.2:latest","model":"llama3.2:latest","size":3338801804,"context_length":8192}]}`
	lmStudioModels = `{"object":"list","data":[{"id":"qwen2-vl-7b-instruct","object":"model","type":"vlm","publisher":"mlx-community","arch":"qwen2_vl","compatibility_type":"mlx","quantization":"4bit","state":"not-loaded","max_context_length":32768},{"id":"meta-llama-3.1-8b-instruct","object":"model","type":"llm","publisher":"lmstudio-community","arch":"llama","compatibility_type":"gguf","quantization":"Q4_K_M","state":"loaded","max_context_length":131072,"loaded_context_length":16384}]}`
)

// serveWindow answers GET or POST at path with body, 404 anywhere else,
// and records the paths asked.
func serveWindow(t *testing.T, method, path, body string, asked *[]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*asked = append(*asked, r.Method+" "+r.URL.Path)
		if r.Method != method || r.URL.Path != path {
			http.NotFound(w, r)
			return
		}
		if r.Method == http.MethodPost {
			b, _ := io.ReadAll(r.Body)
			if !strings.Contains(string(b), `"model":"`) {
				http.Error(w, "no model", http.StatusBadRequest)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestContextWindow(t *testing.T) {
	for _, tc := range []struct {
		name, provider, model string
		method, path, body    string
		want                  int
		wantErr               string
		wantAsked             []string
	}{
		{name: "llama.cpp /props", provider: "llamacpp", model: "qwen3", method: "GET", path: "/props", body: llamaProps,
			want: 8192, wantAsked: []string{"GET /props"}},
		{name: "llama.cpp without /props", provider: "llamacpp", model: "qwen3", method: "GET", path: "/elsewhere",
			wantErr: "llamacpp: GET /props: HTTP 404", wantAsked: []string{"GET /props"}},
		{name: "llama.cpp /props without n_ctx", provider: "llamacpp", model: "qwen3", method: "GET", path: "/props", body: `{"total_slots":1}`,
			wantErr: "llamacpp: GET /props gives no default_generation_settings.n_ctx", wantAsked: []string{"GET /props"}},
		{name: "ollama loaded model", provider: "ollama", model: "qwen2.5:0.5b", method: "GET", path: "/api/ps", body: ollamaPS,
			want: 16384, wantAsked: []string{"GET /api/ps"}},
		{name: "ollama loaded model, :latest implied", provider: "ollama", model: "llama3.2", method: "GET", path: "/api/ps", body: ollamaPS,
			want: 8192, wantAsked: []string{"GET /api/ps"}},
		{name: "ollama num_ctx under the model's length", provider: "ollama", model: "llama3.2", method: "POST", path: "/api/show", body: ollamaShowNumCtx,
			want: 8192, wantAsked: []string{"GET /api/ps", "POST /api/show"}},
		{name: "ollama default num_ctx", provider: "ollama", model: "qwen3:8b", method: "POST", path: "/api/show", body: ollamaShowDefault,
			want: 4096, wantAsked: []string{"GET /api/ps", "POST /api/show"}},
		{name: "ollama model shorter than num_ctx", provider: "ollama", model: "phi", method: "POST", path: "/api/show", body: ollamaShowSmall,
			want: 2048, wantAsked: []string{"GET /api/ps", "POST /api/show"}},
		{name: "lm studio loaded model", provider: "lmstudio", model: "meta-llama-3.1-8b-instruct", method: "GET", path: "/api/v0/models", body: lmStudioModels,
			want: 16384, wantAsked: []string{"GET /api/v0/models"}},
		{name: "lm studio model not loaded", provider: "lmstudio", model: "qwen2-vl-7b-instruct", method: "GET", path: "/api/v0/models", body: lmStudioModels,
			wantErr: "lmstudio: GET /api/v0/models gives no loaded_context_length for qwen2-vl-7b-instruct (not loaded yet?)", wantAsked: []string{"GET /api/v0/models"}},
		{name: "a server of no kind known tries each", provider: "mine", model: "llama3.2", method: "POST", path: "/api/show", body: ollamaShowNumCtx,
			want: 8192, wantAsked: []string{"GET /props", "GET /api/version", "GET /api/v0/models", "GET /api/v0/models", "GET /api/ps", "POST /api/show"}},
		{name: "a configured provider on llama.cpp", provider: "mine", model: "qwen3", method: "GET", path: "/props", body: llamaProps,
			want: 8192, wantAsked: []string{"GET /props"}},
		{name: "a configured provider on LM Studio", provider: "mine", model: "meta-llama-3.1-8b-instruct", method: "GET", path: "/api/v0/models", body: lmStudioModels,
			want: 16384, wantAsked: []string{"GET /props", "GET /api/version", "GET /api/v0/models", "GET /api/v0/models"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var asked []string
			srv := serveWindow(t, tc.method, tc.path, tc.body, &asked)
			m, err := New(tc.provider+"/"+tc.model, Options{Providers: map[string]Provider{tc.provider: {BaseURL: srv.URL + "/v1"}}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.(llm.WindowReader).ContextWindow(context.Background())
			if got != tc.want {
				t.Errorf("window %d, want %d", got, tc.want)
			}
			if tc.wantErr == "" && err != nil {
				t.Errorf("error %v", err)
			}
			if tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr) {
				t.Errorf("error %v\nwant  %s", err, tc.wantErr)
			}
			if strings.Join(asked, ", ") != strings.Join(tc.wantAsked, ", ") {
				t.Errorf("asked %q, want %q", asked, tc.wantAsked)
			}
		})
	}
}

func TestOpenAIDoesNotSayItsWindow(t *testing.T) {
	m, err := New("openai/gpt-4o", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := m.(llm.WindowReader).ContextWindow(context.Background()); n != 0 || err == nil {
		t.Errorf("got %d, %v; want 0 and an error", n, err)
	}
}

// TestContextTooLong: a refusal of a request over the window is a
// *ContextTooLongError, with the server's counts when it gives them.
func TestContextTooLong(t *testing.T) {
	for _, tc := range []struct {
		name, body, wantLine string
		status               int
		wantPrompt, wantCtx  int
	}{
		{name: "llama.cpp", status: 400,
			body:       `{"error":{"code":400,"message":"request (4476 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":4476,"n_ctx":4096}}`,
			wantLine:   "llamacpp: HTTP 400: request (4476 tokens) exceeds the available context size (4096 tokens), try increasing it",
			wantPrompt: 4476, wantCtx: 4096},
		{name: "openai", status: 400,
			body:     `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
			wantLine: "llamacpp: HTTP 400: This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
			wantCtx:  8192},
		{name: "lm studio", status: 400,
			body:     `{"error":"The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 13055>= n_ctx: 4096). Try to load the model with a larger context length, or provide a shorter input."}`,
			wantLine: "llamacpp: HTTP 400: The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 13055>= n_ctx: 4096). Try to load the model with a larger context length, or provide a shorter input.",
			wantCtx:  4096},
		{name: "lm studio, older", status: 400,
			body:     `{"error":"Trying to keep the first 10136 tokens when context the overflows. However, the model is loaded with context length of only 7866 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input."}`,
			wantLine: "llamacpp: HTTP 400: Trying to keep the first 10136 tokens when context the overflows. However, the model is loaded with context length of only 7866 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input.",
			wantCtx:  7866},
		{name: "vllm", status: 400,
			body:     `{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`,
			wantLine: "llamacpp: HTTP 400: This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
			wantCtx:  4096},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json; charset=utf-8")
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			}))
			defer srv.Close()
			m, err := New("llamacpp/qwen3", Options{Providers: map[string]Provider{"llamacpp": {BaseURL: srv.URL + "/v1"}}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
			var tl *llm.ContextTooLongError
			if !errors.As(err, &tl) {
				t.Fatalf("error %v (%T), want a *ContextTooLongError", err, err)
			}
			if err.Error() != tc.wantLine || tl.PromptTokens != tc.wantPrompt || tl.Window != tc.wantCtx {
				t.Errorf("got %q (%d, %d)\nwant %q (%d, %d)", err, tl.PromptTokens, tl.Window, tc.wantLine, tc.wantPrompt, tc.wantCtx)
			}
		})
	}
}

// TestOtherBadRequestIsNotTooLong: a 400 for another reason stays an
// ordinary error.
func TestOtherBadRequestIsNotTooLong(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(400)
		io.WriteString(w, `{"error":{"code":400,"message":"tools param requires --jinja flag","type":"invalid_request_error"}}`)
	}))
	defer srv.Close()
	m, _ := New("llamacpp/qwen3", Options{Providers: map[string]Provider{"llamacpp": {BaseURL: srv.URL + "/v1"}}})
	_, err := m.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
	if _, ok := errors.AsType[*llm.ContextTooLongError](err); ok || err == nil {
		t.Errorf("error %v, want an ordinary one", err)
	}
}

// TestCachedTokens: llama.cpp's timings.cache_n and OpenAI's
// prompt_tokens_details.cached_tokens are the reply's CachedTokens.
func TestCachedTokens(t *testing.T) {
	for name, last := range map[string]string{
		"llama.cpp": `{"choices":[],"usage":{"prompt_tokens":310,"completion_tokens":42},"timings":{"cache_n":300,"prompt_n":10,"prompt_ms":5.1,"predicted_n":42,"predicted_ms":512.9}}`,
		"openai":    `{"choices":[],"usage":{"prompt_tokens":310,"completion_tokens":42,"prompt_tokens_details":{"cached_tokens":300}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			body := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: " + last + "\n\ndata: [DONE]\n\n"
			srv := httptest.NewServer(serveStream([]byte(body)))
			defer srv.Close()
			m, _ := New("llamacpp/qwen3", Options{Providers: map[string]Provider{"llamacpp": {BaseURL: srv.URL + "/v1"}}})
			r, err := m.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Usage.CachedTokens != 300 || r.Usage.InputTokens != 310 {
				t.Errorf("usage %+v, want 300 of 310 cached", r.Usage)
			}
		})
	}
}
