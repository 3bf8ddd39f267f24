package cli

import (
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llamatest"
)

// TestPrintContextWindow runs mm -p against a fake llama.cpp server with
// a 2,048-token window: the first request asks the window once (GET
// /props, a millisecond); a question over the window the server gives is
// refused before any chat request, in one line.
func TestPrintContextWindow(t *testing.T) {
	srv := llamatest.Start(llamatest.Options{NCtx: 2048, Reply: func(req llamatest.Request) llamatest.Reply {
		return llamatest.Reply{Content: "hello"}
	}})
	defer srv.Close()

	out, errOut, code := runMM(t, srv.URL, "", "-p", "hi")
	if out != "hello\n" || errOut != "" || code != 0 {
		t.Errorf("short question: stdout %q, stderr %q, exit %d", out, errOut, code)
	}
	if srv.Probes() != 1 {
		t.Errorf("a short question asked the server its window %d times, want once", srv.Probes())
	}

	out, errOut, code = runMM(t, srv.URL, "", "-p", strings.Repeat("a long question ", 600))
	want := "mm: the question is about 3,159 tokens (with the system prompt and the tools), more than the model's context window of 2,048: shorten it, or give the model a larger window (contextWindow, or the server's context size)\n"
	if out != "" || errOut != want || code != 1 {
		t.Errorf("long question: stdout %q, exit %d, stderr\n%q\nwant\n%q", out, code, errOut, want)
	}
	if srv.Probes() != 2 || len(srv.Bodies()) != 1 {
		t.Errorf("%d probes and %d chat requests, want 2 (one a run) and 1 (the short question's)", srv.Probes(), len(srv.Bodies()))
	}
}
