package cli

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runMM runs the real binary with a configuration naming a provider at
// baseURL (and the provider's other keys, extra, as YAML lines), and
// returns its stdout, stderr and exit code.
func runMM(t *testing.T, baseURL, extra string, args ...string) (string, string, int) {
	t.Helper()
	dir := t.TempDir()
	cfg := fmt.Sprintf("model: local/test-model\nproviders:\n  local:\n    baseURL: %s\n%s", baseURL, extra)
	if err := os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(mmBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// chatOnly serves h at chat completions alone, and 404 elsewhere: a server
// that does not say its window (mm asks it at the first request, on other
// paths), as these tests' fakes, which answer every request as a chat,
// are meant to be.
func chatOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// TestModelServer runs mm -p against a local server speaking the
// OpenAI-compatible streaming protocol as llama.cpp does, and against
// servers that fail: each failure is one clear line and exit code 1.
func TestModelServer(t *testing.T) {
	llamacpp := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, piece := range []string{"Hello", " from", " llama.cpp"} {
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%q},\"finish_reason\":null}],\"object\":\"chat.completion.chunk\"}\n\n", piece)
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"object\":\"chat.completion.chunk\"}\n\ndata: [DONE]\n\n")
	}
	busyOnce := 0
	tests := []struct {
		name    string
		handler http.HandlerFunc
		extra   string // the provider's keys besides baseURL
		stdout  string
		stderr  string
		code    int
	}{
		{"streams", llamacpp, "", "Hello from llama.cpp\n", "", 0},
		{"HTTP 500", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(500)
			fmt.Fprint(w, `{"error":{"code":500,"message":"model is loading","type":"server_error"}}`)
		}, "", "", "mm: local: HTTP 500: model is loading\n", 1},
		{"invalid SSE", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: {not json\n\n")
		}, "", "", "mm: local: ", 1},
		{"busy, then streams", func(w http.ResponseWriter, r *http.Request) {
			if busyOnce++; busyOnce == 1 {
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(503)
				fmt.Fprint(w, `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`)
				return
			}
			llamacpp(w, r)
		}, "", "Hello from llama.cpp\n", "local is busy (HTTP 503: Loading model): retrying in 0s (attempt 2 of 5)\n", 0},
		{"stalls", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}, "    idleTimeout: 300ms\n", "", "mm: local sent nothing for 300ms (idleTimeout) at http://", 1},
		{"HTML error page", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(502)
			fmt.Fprint(w, "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n")
		}, "", "", "mm: local: HTTP 502 Bad Gateway: \"502 Bad Gateway\"\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(chatOnly(tt.handler))
			defer srv.Close()
			stdout, stderr, code := runMM(t, srv.URL+"/v1", tt.extra, "-p", "hi")
			if stdout != tt.stdout || code != tt.code || !strings.HasPrefix(stderr, tt.stderr) || strings.Count(stderr, "\n") > 1 {
				t.Errorf("stdout %q stderr %q code %d\nwant stdout %q stderr %q… code %d", stdout, stderr, code, tt.stdout, tt.stderr, tt.code)
			}
		})
	}
}

// TestModelServerUnreachable: a server that is not running gives one line
// naming the provider, the URL and how to start it.
func TestModelServerUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/v1"
	l.Close()
	_, stderr, code := runMM(t, url, "", "-p", "hi")
	want := "mm: cannot reach local at " + url
	if code != 1 || !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr %q code %d, want one line starting %q", stderr, code, want)
	}
}
