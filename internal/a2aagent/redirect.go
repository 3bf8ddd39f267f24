package a2aagent

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
)

// maxRedirects is how many redirects the card's GET follows, as Go's own
// client does.
const maxRedirects = 10

// RedirectError is a redirect mm would not follow: the request is not
// sent again, so the token goes nowhere the configuration does not name.
type RedirectError struct{ msg string }

func (e *RedirectError) Error() string { return e.msg }

// checkRedirect is the Agent's client's redirect policy. A JSON-RPC call
// (a POST) follows none: a 307 would send the question, and the token, to
// whoever the agent names, and the answer would come from there. The
// card's GET follows one within the same origin (scheme, host and port),
// and one to another origin only when there is no token to carry: Go's
// client keeps Authorization across ports of one host and from https to
// http.
func (a *Agent) checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0]
	switch {
	case first.Method != http.MethodGet:
		return &RedirectError{fmt.Sprintf("agent %q: %s redirects to %s: mm follows no redirect of a JSON-RPC call: write the URL it should call in a2a:",
			a.opts.Name, first.URL.Redacted(), req.URL.Redacted())}
	case a.opts.Token != "" && !sameOrigin(first.URL, req.URL):
		return &RedirectError{fmt.Sprintf("agent %q: %s redirects to %s, another origin: mm sends $%s only to the URL configured: write that URL in a2a:",
			a.opts.Name, first.URL.Redacted(), origin(req.URL), a.opts.TokenEnv)}
	case len(via) >= maxRedirects:
		return &RedirectError{fmt.Sprintf("agent %q: %s redirects more than %d times", a.opts.Name, first.URL.Redacted(), maxRedirects)}
	}
	return nil
}

// sameOrigin reports whether a and b have one scheme, host and port.
func sameOrigin(a, b *url.URL) bool {
	return a.Scheme == b.Scheme && a.Hostname() == b.Hostname() && port(a) == port(b)
}

// port is u's port, or its scheme's.
func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}

func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

// redirectError is the RedirectError in err, the error of a client's Do.
func redirectError(err error) (*RedirectError, bool) {
	var re *RedirectError
	ok := errors.As(err, &re)
	return re, ok
}
