package openai

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
)

// hiddenHeaders are the headers whose values a trace never shows: they
// may hold the API key, or a server's session.
var hiddenHeaders = map[string]bool{"Authorization": true, "Proxy-Authorization": true, "Cookie": true, "Set-Cookie": true,
	"X-Api-Key": true, "Api-Key": true}

// traced is client with every request and response written to trace, one
// line at a time, as mm --verbose shows them: "→ " before what mm sends
// (the method and URL, the headers, the body), "← " before what it
// receives (the status, the headers, the body as it streams). The API key
// never is: a header that may hold it is shown "[hidden]", a URL's
// password and a query value named like a key or a token too.
func traced(client *http.Client, trace func(line string)) *http.Client {
	next := client.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c := *client
	c.Transport = &traceTransport{next: next, trace: trace}
	return &c
}

// traceTransport is the http.RoundTripper of a traced client.
type traceTransport struct {
	next http.RoundTripper
	// mu keeps the lines of one request, and each line of a response,
	// whole when requests run at once.
	mu    sync.Mutex
	trace func(line string)
}

func (t *traceTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	t.mu.Lock()
	t.trace("→ " + req.Method + " " + redactURL(req.URL))
	t.headers("→ ", req.Header)
	t.lines("→ ", body)
	t.mu.Unlock()
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		t.say("← " + err.Error())
		return nil, err
	}
	t.mu.Lock()
	t.trace("← " + resp.Proto + " " + resp.Status)
	t.headers("← ", resp.Header)
	t.mu.Unlock()
	resp.Body = &tracedBody{ReadCloser: resp.Body, t: t}
	return resp, nil
}

// say writes one line whole.
func (t *traceTransport) say(line string) {
	t.mu.Lock()
	t.trace(line)
	t.mu.Unlock()
}

// headers writes h, one header a line, sorted, the hidden ones' values
// left out; the caller holds mu.
func (t *traceTransport) headers(dir string, h http.Header) {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := strings.Join(h[k], ", ")
		if hiddenHeaders[http.CanonicalHeaderKey(k)] {
			v = "[hidden]"
		}
		t.trace(dir + k + ": " + v)
	}
}

// lines writes b one line at a time; the caller holds mu.
func (t *traceTransport) lines(dir string, b []byte) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1)
	for sc.Scan() {
		t.trace(dir + sc.Text())
	}
}

// tracedBody writes a response's body as it is read, each line once it
// ends (the last one at the end of the body, or when it is closed).
type tracedBody struct {
	io.ReadCloser
	t       *traceTransport
	partial []byte
}

func (b *tracedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.partial = append(b.partial, p[:n]...)
	for {
		i := bytes.IndexByte(b.partial, '\n')
		if i < 0 {
			break
		}
		b.t.say("← " + strings.TrimSuffix(string(b.partial[:i]), "\r"))
		b.partial = b.partial[i+1:]
	}
	if err != nil {
		b.flush()
	}
	return n, err
}

func (b *tracedBody) Close() error {
	b.flush()
	return b.ReadCloser.Close()
}

// flush writes what is left of the body, a line without its end.
func (b *tracedBody) flush() {
	if len(b.partial) > 0 {
		b.t.say("← " + string(b.partial))
		b.partial = nil
	}
}

// redactURL is u as a trace shows it: its password and the values of its
// query's keys and tokens hidden.
func redactURL(u *url.URL) string {
	c := *u
	if q := c.Query(); len(q) > 0 {
		for k := range q {
			if l := strings.ToLower(k); strings.Contains(l, "key") || strings.Contains(l, "token") || strings.Contains(l, "secret") {
				q.Set(k, "hidden")
			}
		}
		c.RawQuery = q.Encode()
	}
	return c.Redacted()
}
