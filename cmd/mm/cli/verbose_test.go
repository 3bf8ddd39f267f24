package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestVerbose: mm -p --verbose writes on stderr what it sends to the
// model's server and what it receives, line by line, for a bug report; the
// API key is never in it, the answer alone on stdout.
func TestVerbose(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.URL.Path != "/v1/chat/completions" { // what mm asks a server of itself: not this one's
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, "no \x1b[31msuch page\n")
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"choices\":[{\"delta\":{\"content\":\"hi there\"}}]}\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"agent.yaml": "model: box/m\nsystem: Be brief.\nprojectDocs: false\nproviders:\n  box:\n    baseURL: " + srv.URL + "/v1\n    apiKeyEnv: BOX_KEY\n"})
	cmd := exec.Command(mmBin, "-p", "--verbose", "hello")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BOX_KEY=sk-do-not-show", "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mm: %v\n%s", err, stderr.String())
	}
	if got := stdout.String(); got != "hi there\n" {
		t.Errorf("stdout %q, want the answer alone", got)
	}
	got := stderr.String()
	got = strings.ReplaceAll(got, srv.URL, "http://HOST")
	got = regexp.MustCompile(`(?m)^← (Date|Content-Length|X-Content-Type-Options): .*\n`).ReplaceAllString(got, "")
	for _, want := range []string{
		"→ POST http://HOST/v1/chat/completions\n" +
			"→ Accept: text/event-stream\n" +
			"→ Authorization: [hidden]\n" +
			"→ Content-Type: application/json\n" +
			`→ {"model":"m","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"hello"}],"tools":[`,
		"← HTTP/1.1 200 OK\n" +
			"← Content-Type: text/event-stream\n" +
			`← data: {"choices":[{"delta":{"content":"hi there"}}]}` + "\n← \n← data: [DONE]\n← \n",
		// A server's escape is written out, as every text a server sends.
		"← HTTP/1.1 404 Not Found\n← Content-Type: text/plain\n← no \\x1b[31msuch page\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("stderr lacks\n%s\nin:\n%s", want, got)
		}
	}
	if strings.Contains(stderr.String(), "sk-do-not-show") {
		t.Error("the API key is on stderr")
	}
}

// TestVerboseWindowRefused: the window draws on the terminal stderr is,
// so mm -tui --verbose wants stderr sent elsewhere.
func TestVerboseWindowRefused(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, echoConfig)
	s, out, errOut := testStreams(dir, "", nil)
	s.ErrTerminal = true
	code := runWith(context.Background(), nil, s, []string{"-tui", "--verbose"})
	want := "mm -tui: --verbose writes on stderr, the terminal the window draws on: send it to a file (mm -tui --verbose 2>mm.log)\n"
	if code != 2 || errOut.String() != want || out.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, want)
	}
}
