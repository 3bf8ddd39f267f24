package cli

import (
	"cmp"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/ollamatest"
)

// BenchmarkRealOllamaSession runs a 20-turn line-mode session on a real
// Ollama serving a random llama of tens of millions of parameters
// (ollamatest.Big: prefill costs milliseconds a token on a laptop's CPU,
// tens on a shared one), with a tool on offer (read_file), a hand-off by
// /ask-expert at turn 10 and a window (num_ctx 2048) it outgrows, so that
// it compresses. It reports, from Ollama's debug log: the prompt tokens
// read anew per request (what no cache slot held) and in all, the share
// of prompt tokens found in the cache, the requests Ollama cut, and the
// wall time its runner spent on all the session's requests (prefill and
// 12-token replies); and, timed by a proxy between mm and Ollama, the
// prefill's wall time — each request's wait for the first byte of its
// answer, which is prefill and the first token — and that time per token
// read anew.
//
// MM_BENCH_MM runs another mm binary (one built from an older commit:
// bench/ollama.sh); MM_BENCH_OLLAMA_ENV adds server settings
// (OLLAMA_NUM_PARALLEL=2,OLLAMA_MULTIUSER_CACHE=1,OLLAMA_NEW_ENGINE=1).
func BenchmarkRealOllamaSession(b *testing.B) {
	var env []string
	if e := os.Getenv("MM_BENCH_OLLAMA_ENV"); e != "" {
		env = strings.Split(e, ",")
	}
	bin := cmp.Or(os.Getenv("MM_BENCH_MM"), mmBin)
	var in strings.Builder
	for i := 1; i <= 20; i++ {
		if i == 10 {
			in.WriteString("/ask-expert which of the files matters most?\n")
		}
		fmt.Fprintf(&in, "question %d: what does the file notes-%d.txt say about the old bridge?\n", i, i)
	}
	for range b.N {
		b.StopTimer()
		s := ollamatest.Start(b, env...)
		s.Create(b, ollamatest.Model{Name: "big", Tools: true, NumCtx: 2048, NumPredict: 12, Shape: ollamatest.Big})
		waits := startFirstBytes(b, s.URL)
		dir := b.TempDir()
		// The address in the files, not OLLAMA_HOST: an mm from before
		// issue 23 reads only the files.
		at := "providers:\n  ollama:\n    baseURL: " + waits.url + "/v1\n"
		for name, body := range map[string]string{
			"agent.yaml":  "model: ollama/big\ntools: [read_file]\nmmConfigs:\n  expert: expert.yaml\n" + at,
			"expert.yaml": "model: ollama/big\ntools: [read_file]\nsystem: You are the expert. Answer in one line.\n" + at,
		} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		cmd := benchCommand(bin, dir, strings.TrimPrefix(waits.url, "http://"), in.String())
		start := time.Now()
		out, err := cmd.CombinedOutput()
		wall := time.Since(start)
		b.StopTimer()
		if err != nil && !onlyEmptySummaries(failures(string(out))) {
			b.Fatalf("mm: %v\n%s", err, out)
		}
		loads := s.CacheLoads()
		prompt, used, anew := 0, 0, 0
		for _, l := range loads {
			prompt += l.Prompt
			used += l.Used
			anew += l.Prompt - l.Used
		}
		if len(loads) == 0 {
			b.Fatal("no request reached the runner")
		}
		prefill := waits.total()
		b.ReportMetric(float64(anew)/float64(len(loads)), "reread-tokens/request")
		b.ReportMetric(float64(anew), "reread-tokens")
		b.ReportMetric(prefill.Seconds(), "prefill-s")
		b.ReportMetric(float64(prefill.Milliseconds())/float64(max(anew, 1)), "prefill-ms/token")
		b.ReportMetric(float64(prompt)/float64(len(loads)), "prompt-tokens/request")
		b.ReportMetric(100*float64(used)/float64(prompt), "cached-%")
		b.ReportMetric(float64(len(s.Truncations())), "cut")
		b.ReportMetric(float64(strings.Count(string(out), emptySummary)), "empty-summaries")
		b.ReportMetric(float64(len(loads)), "requests")
		b.ReportMetric(runnerSeconds(s.Log()), "runner-s")
		b.ReportMetric(wall.Seconds(), "wall-s")
	}
}

// firstBytes is a proxy to Ollama that times each chat completion's wait
// for the first byte of its answer: the prefill, and the first token,
// as mm waits for them.
type firstBytes struct {
	url   string
	mu    sync.Mutex
	waits []time.Duration
}

// startFirstBytes starts a proxy to the Ollama at target, stopped when b
// ends.
func startFirstBytes(b *testing.B, target string) *firstBytes {
	u, err := url.Parse(target)
	if err != nil {
		b.Fatal(err)
	}
	f := &firstBytes{}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.FlushInterval = -1 // each chunk as it comes
	proxy.Transport = f
	srv := httptest.NewServer(proxy)
	b.Cleanup(srv.Close)
	f.url = srv.URL
	return f
}

func (f *firstBytes) RoundTrip(r *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || r.URL.Path != "/v1/chat/completions" {
		return resp, err
	}
	resp.Body = &firstByteBody{ReadCloser: resp.Body, first: func() {
		f.mu.Lock()
		f.waits = append(f.waits, time.Since(start))
		f.mu.Unlock()
	}}
	return resp, nil
}

// total is the sum of the waits.
func (f *firstBytes) total() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	var d time.Duration
	for _, w := range f.waits {
		d += w
	}
	return d
}

// firstByteBody calls first when the first byte of the body is read.
type firstByteBody struct {
	io.ReadCloser
	first func()
}

func (b *firstByteBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 && b.first != nil {
		b.first()
		b.first = nil
	}
	return n, err
}

// ginLine is Ollama's access log line of a chat completion and its
// duration, as Go writes a time.Duration ("850ms", "12.5s", "1m4.2s").
var ginLine = regexp.MustCompile(`\| 200 \|\s+(\S+) \|.*"/v1/chat/completions"`)

// runnerSeconds sums the durations of the chat completions Ollama served.
func runnerSeconds(log string) float64 {
	total := 0.0
	for _, m := range ginLine.FindAllStringSubmatch(log, -1) {
		if d, err := time.ParseDuration(m[1]); err == nil {
			total += d.Seconds()
		}
	}
	return total
}

// failures are the lines of out that begin "mm: ": a turn's error.
func failures(out string) string {
	var b strings.Builder
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "mm: ") {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// TestRunnerSeconds: the chat completions' durations in Ollama's access
// log, a minute and more included (a request of 1,600 tokens on a shared
// CPU), and only those Ollama served.
func TestRunnerSeconds(t *testing.T) {
	log := `[GIN] 2026/12/02 - 05:02:04 | 200 | 19.304563515s |       127.0.0.1 | POST     "/v1/chat/completions"
[GIN] 2026/12/02 - 05:03:04 | 200 |  1m4.5s |       127.0.0.1 | POST     "/v1/chat/completions"
[GIN] 2026/12/02 - 05:03:05 | 200 |     850ms |       127.0.0.1 | POST     "/v1/chat/completions"
[GIN] 2026/12/02 - 05:03:05 | 200 |     120µs |       127.0.0.1 | GET      "/api/ps"
[GIN] 2026/12/02 - 05:03:06 | 500 |  2.0s |       127.0.0.1 | POST     "/v1/chat/completions"
`
	if got, want := runnerSeconds(log), 19.304563515+64.5+0.85; got < want-1e-6 || got > want+1e-6 {
		t.Errorf("runnerSeconds = %v, want %v", got, want)
	}
}
