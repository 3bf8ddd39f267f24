package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"mime"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode"

	"github.com/mm-agent/mm/internal/textcut"
)

// statusLine is "HTTP <code>: <message>" for a response that is not a
// success, its message found in body by errorMessage. An HTML page (a
// proxy's or a server's error page) is never shown raw: it reads as its
// status and its <title>, `HTTP 502 Bad Gateway: "502 Bad Gateway"`.
func statusLine(status int, contentType string, body []byte) string {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt != "text/html" && mt != "application/xhtml+xml" &&
		!strings.HasPrefix(http.DetectContentType(body), "text/html") {
		return fmt.Sprintf("HTTP %d: %s", status, errorMessage(body, status))
	}
	head := "HTTP " + strconv.Itoa(status)
	if text := http.StatusText(status); text != "" {
		head += " " + text
	}
	if m := htmlTitle().FindSubmatch(body); m != nil {
		if title := oneLine(html.UnescapeString(string(m[1])), maxTitle); title != "" {
			return head + ": " + strconv.Quote(title)
		}
	}
	return head + " (an HTML page with no title)"
}

// htmlTitle finds an HTML page's title. A pattern, not an HTML parser, is
// enough for the one element error pages all have; a page without it reads
// as its status alone.
var htmlTitle = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?is)<title\b[^>]*>(.*?)</title\s*>`)
})

// maxTitle bounds the title shown: error pages' titles are a few words.
const maxTitle = 120

// errorMessage finds the message in an error body: OpenAI's
// {"error":{"message":…}}, Ollama's {"error":"…"}, {"message":…},
// {"detail":…}, or plain text. The result is one line, cut when long.
func errorMessage(body []byte, status int) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	msg := ""
	if json.Unmarshal(body, &v) == nil {
		switch {
		case len(v.Error) > 0:
			msg = messageOf(v.Error)
		case v.Message != "":
			msg = v.Message
		case len(v.Detail) > 0:
			msg = messageOf(v.Detail)
		}
	}
	if msg == "" {
		msg = string(body)
	}
	msg = oneLine(msg, 300)
	if msg == "" {
		msg = http.StatusText(status)
	}
	return msg
}

// messageOf reads an error value that is either a string or an object with a
// message.
func messageOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &o) == nil && o.Message != "" {
		return o.Message
	}
	return string(raw)
}

// oneLine folds whitespace runs into single spaces and cuts s at max runes.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if head, n := textcut.Runes(s, max); n > 0 {
		s = head + "…"
	}
	return s
}

// unreachableError is a server that could not be connected to.
type unreachableError struct {
	msg string
	err error
}

func (e *unreachableError) Error() string { return e.msg }
func (e *unreachableError) Unwrap() error { return e.err }

// transportError turns a failed request into one line: which provider, which
// URL, and how to start the server when it could not be reached.
func transportError(provider, baseURL string, err error) error {
	var dnsErr *net.DNSError
	var opErr *net.OpError
	cause := ""
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
	case errors.As(err, &dnsErr):
		cause = " (no such host)"
	case errors.As(err, &opErr) && opErr.Op == "dial":
		if opErr.Timeout() {
			cause = " (timed out)"
		} else {
			cause = " (" + opErr.Err.Error() + ")"
		}
	default:
		return fmt.Errorf("%s: POST %s/chat/completions: %w", provider, baseURL, err)
	}
	return &unreachableError{
		msg: fmt.Sprintf("cannot reach %s at %s%s: %s", provider, baseURL, cause, startHint(provider, baseURL)),
		err: err,
	}
}

// startHint says how to start a provider's server.
func startHint(provider, baseURL string) string {
	switch provider {
	case "llmman":
		return "is it running? start it with: llmman serve"
	case "ollama":
		return "is it running? start it with: ollama serve"
	case "llamacpp":
		port := "8080"
		if p := portOf(baseURL); p != "" {
			port = p
		}
		return "is it running? start it with: llama-server -m <model.gguf> --port " + port
	case "lmstudio":
		return "is it running? start the LM Studio server (in the app, or: lms server start)"
	case "openai":
		return "check the network connection"
	}
	return "is it running? (providers." + provider + ".baseURL in the config says where it should be)"
}

// portOf returns the port of a URL, or "" when it has none.
func portOf(rawURL string) string {
	i := strings.Index(rawURL, "://")
	if i < 0 {
		return ""
	}
	host, _, _ := strings.Cut(rawURL[i+3:], "/")
	if j := strings.LastIndex(host, ":"); j >= 0 && !strings.HasSuffix(host, "]") {
		if _, err := strconv.Atoi(host[j+1:]); err == nil {
			return host[j+1:]
		}
	}
	return ""
}

// statusError is a refusal the server will not take back later: any
// status but 429 and 503, and a body that is not a window's refusal.
type statusError struct {
	provider string
	status   int
	// line is "HTTP 400: <the server's message>".
	line string
}

func (e *statusError) Error() string { return e.provider + ": " + e.line }

// quoteControl is s with its control characters escaped (\x1b, \n), so
// that a name from a configuration or a server cannot move the terminal.
func quoteControl(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	q := strconv.QuoteToGraphic(s)
	return q[1 : len(q)-1]
}
