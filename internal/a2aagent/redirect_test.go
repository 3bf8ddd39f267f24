package a2aagent

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
)

// elsewhere is a server that records what reached it.
type elsewhere struct {
	mu  sync.Mutex
	got []string // "METHOD path Authorization"
	srv *httptest.Server
}

func newElsewhere(t *testing.T) *elsewhere {
	e := &elsewhere{}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		e.got = append(e.got, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		e.mu.Unlock()
		http.Error(w, "answered by another server", http.StatusTeapot)
	}))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *elsewhere) requests() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.got
}

// agentHandler is the test agent with a card naming /rpc, below whatever
// URL it is reached at, as its endpoint; redirects answers the paths it
// maps with a 307 to their URL, and POSTs to "POST" 's.
func agentHandler(token string, redirects map[string]string) http.Handler {
	card := &a2a.AgentCard{Name: "test", Version: "1.2.0", URL: "/rpc", ProtocolVersion: "0.3.0",
		PreferredTransport: a2a.TransportProtocolJSONRPC, Capabilities: a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"}, Skills: []a2a.AgentSkill{}}
	rpc := a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(newTestAgent()))
	cardHandler := a2asrv.NewStaticAgentCardHandler(card)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		where, ok := redirects[r.URL.Path]
		if !ok {
			where, ok = redirects[r.Method]
		}
		switch {
		case ok:
			http.Redirect(w, r, where, http.StatusTemporaryRedirect)
		case r.URL.Path == CardPath:
			cardHandler.ServeHTTP(w, r)
		case token != "" && r.Header.Get("Authorization") != "Bearer "+token:
			http.Error(w, "unauthorized", http.StatusUnauthorized)
		default:
			rpc.ServeHTTP(w, r)
		}
	})
}

func redirecting(t *testing.T, token string, redirects map[string]string) *httptest.Server {
	srv := httptest.NewServer(agentHandler(token, redirects))
	t.Cleanup(srv.Close)
	return srv
}

// TestRedirectsKeepTheToken: the card's GET follows no redirect to
// another origin with a token, and a JSON-RPC call follows none at all:
// the token and the question stay with the URL configured, and the
// refusal is one line.
func TestRedirectsKeepTheToken(t *testing.T) {
	other := newElsewhere(t)
	t.Run("card to another port", func(t *testing.T) {
		srv := redirecting(t, "s3cret", map[string]string{CardPath: other.srv.URL + CardPath})
		a, _ := New(Options{Name: "reviewer", URL: srv.URL, Token: "s3cret", TokenEnv: "REVIEWER_TOKEN"})
		want := `agent "reviewer": ` + srv.URL + CardPath + ` redirects to ` + other.srv.URL + `, another origin: mm sends $REVIEWER_TOKEN only to the URL configured: write that URL in a2a:`
		if _, err := ask(t, a, "hello"); err != want {
			t.Errorf("error %q\nwant  %q", err, want)
		}
	})
	t.Run("card within its origin", func(t *testing.T) {
		srv := redirecting(t, "s3cret", map[string]string{"/old" + CardPath: "/" + strings.TrimPrefix(CardPath, "/")})
		a, _ := New(Options{Name: "reviewer", URL: srv.URL + "/old", Token: "s3cret", TokenEnv: "REVIEWER_TOKEN"})
		if shown, err := ask(t, a, "hello"); shown != "echo: hello" || err != "" {
			t.Errorf("shown %q, error %q; want the answer", shown, err)
		}
	})
	t.Run("stream to another port", func(t *testing.T) {
		srv := redirecting(t, "", map[string]string{"POST": other.srv.URL + "/rpc"})
		for _, token := range []string{"s3cret", ""} {
			a, _ := New(Options{Name: "reviewer", URL: srv.URL, Token: token, TokenEnv: "REVIEWER_TOKEN"})
			want := `agent "reviewer": ` + srv.URL + `/rpc redirects to ` + other.srv.URL + `/rpc: mm follows no redirect of a JSON-RPC call: write the URL it should call in a2a:`
			if _, err := ask(t, a, "hello"); err != want {
				t.Errorf("token %q: error %q\nwant  %q", token, err, want)
			}
		}
	})
	t.Run("stream within its origin", func(t *testing.T) {
		srv := redirecting(t, "", map[string]string{"POST": "/elsewhere"})
		a, _ := New(Options{Name: "reviewer", URL: srv.URL})
		want := `agent "reviewer": ` + srv.URL + `/rpc redirects to ` + srv.URL + `/elsewhere: mm follows no redirect of a JSON-RPC call: write the URL it should call in a2a:`
		if _, err := ask(t, a, "hello"); err != want {
			t.Errorf("error %q\nwant  %q", err, want)
		}
	})
	if got := other.requests(); len(got) != 0 {
		t.Errorf("the other server received %q: want nothing", got)
	}
}

// TestSameOrigin: scheme, host and port, with the scheme's port when none
// is written.
func TestSameOrigin(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"https://a.example/x", "https://a.example:443/y", true},
		{"http://a.example/", "http://a.example:80/", true},
		{"https://a.example/", "http://a.example/", false},
		{"http://127.0.0.1:8000/", "http://127.0.0.1:8001/", false},
		{"http://a.example/", "http://b.example/", false},
	} {
		a, _ := url.Parse(tt.a)
		b, _ := url.Parse(tt.b)
		if got := sameOrigin(a, b); got != tt.same {
			t.Errorf("sameOrigin(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
}
