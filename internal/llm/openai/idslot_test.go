package openai

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/mm-agent/mm/internal/llamatest"
	"github.com/mm-agent/mm/internal/llm"
)

// TestSlotFor: the agent a person started takes slot 0; each asked agent
// a slot none of its n-1 nearest askers holds; agents asked by one asker
// spread by their names; past n deep, the farthest asker's slot.
func TestSlotFor(t *testing.T) {
	for _, tc := range []struct {
		asked []string
		n     int
		want  int
	}{
		{asked: nil, n: 1, want: 0},
		{asked: []string{"expert"}, n: 1, want: 0},
		{asked: nil, n: 2, want: 0},
		{asked: []string{"expert"}, n: 2, want: 1},
		{asked: []string{"expert", "helper"}, n: 2, want: 0},
		{asked: []string{"a", "b", "c"}, n: 2, want: 1},
		{asked: nil, n: 4, want: 0},
		// Three agents one asker asks: three slots.
		{asked: []string{"expert"}, n: 4, want: 1},
		{asked: []string{"reviewer"}, n: 4, want: 2},
		{asked: []string{"tester"}, n: 4, want: 3},
		// A chain five deep on four slots: 0, 2, 3, 1, then the
		// farthest asker's (0), then the next farthest's (2).
		{asked: []string{"a"}, n: 4, want: 2},
		{asked: []string{"a", "b"}, n: 4, want: 3},
		{asked: []string{"a", "b", "c"}, n: 4, want: 1},
		{asked: []string{"a", "b", "c", "d"}, n: 4, want: 0},
		{asked: []string{"a", "b", "c", "d", "e"}, n: 4, want: 2},
	} {
		if got := slotFor(tc.asked, tc.n); got != tc.want {
			t.Errorf("slotFor(%q, %d) = %d, want %d", tc.asked, tc.n, got, tc.want)
		}
	}
	// Whatever the names, no agent takes a slot of its n-1 nearest askers.
	names := []string{"x", "y", "zed", "w", "v", "u", "t"}
	for n := 2; n <= 5; n++ {
		var chain []int
		for depth := 0; depth <= len(names); depth++ {
			s := slotFor(names[:depth], n)
			if slices.Contains(chain[max(0, len(chain)-(n-1)):], s) {
				t.Errorf("%d slots: %q takes slot %d, which an asker as near holds (%v)", n, names[:depth], s, chain)
			}
			chain = append(chain, s)
		}
	}
}

// TestIDSlot: the requests of an agent in a chain name its slot on a
// server of several; an agent outside any chain, a server of one slot and
// a server of another kind get none; GET /props is asked once, for the
// window and the slots.
func TestIDSlot(t *testing.T) {
	for _, tc := range []struct {
		name     string
		provider string
		slots    int
		place    Place
		want     string
	}{
		{name: "the agent a person started, which asks", provider: "llamacpp", slots: 2, place: Place{Asks: true}, want: `"id_slot":0`},
		{name: "an asked agent", provider: "llamacpp", slots: 2, place: Place{Asked: []string{"expert"}}, want: `"id_slot":1`},
		{name: "an asked agent, four slots", provider: "llamacpp", slots: 4, place: Place{Asked: []string{"tester"}}, want: `"id_slot":3`},
		{name: "a configured provider of llama.cpp's kind", provider: "local", slots: 2, place: Place{Asked: []string{"expert"}}, want: `"id_slot":1`},
		{name: "an agent outside any chain", provider: "llamacpp", slots: 2, place: Place{}},
		{name: "one slot", provider: "llamacpp", slots: 1, place: Place{Asks: true}},
		{name: "ollama", provider: "ollama", slots: 2, place: Place{Asks: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llamatest.Start(llamatest.Options{NCtx: 8192, Slots: tc.slots, Reply: func(llamatest.Request) llamatest.Reply {
				return llamatest.Reply{Content: "ok"}
			}})
			defer srv.Close()
			m, err := New(tc.provider+"/test", Options{Providers: map[string]Provider{tc.provider: {BaseURL: srv.URL}}, Place: tc.place})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if tc.provider != "ollama" {
				if n, err := m.(llm.WindowReader).ContextWindow(ctx); n != 8192 || err != nil {
					t.Fatalf("window %d, %v", n, err)
				}
			}
			for range 2 {
				if _, err := m.Stream(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil); err != nil {
					t.Fatal(err)
				}
			}
			for i, b := range srv.Bodies() {
				if got := bytes.Contains(b, []byte(`"id_slot"`)); got != (tc.want != "") || !bytes.Contains(b, []byte(tc.want)) {
					t.Errorf("request %d: %s, want %q in it", i+1, b, tc.want)
				}
			}
			wantProbes := 1 // the window's, which the slot's reuses
			if tc.provider == "ollama" {
				wantProbes = 0
			}
			if srv.Probes() != wantProbes {
				t.Errorf("GET /props asked %d times, want %d", srv.Probes(), wantProbes)
			}
		})
	}
}

// TestPropsRefusedAgain: a server not listening yet is asked again at the
// next request; one that answered is not.
func TestPropsRefusedAgain(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	m, err := New("llamacpp/test", Options{Providers: map[string]Provider{"llamacpp": {BaseURL: "http://" + addr + "/v1"}}, Place: Place{Asks: true}})
	if err != nil {
		t.Fatal(err)
	}
	om := m.(*openAIModel)
	if slot := om.idSlot(context.Background()); slot != nil {
		t.Fatalf("slot %d from a server not listening", *slot)
	}
	l, err = net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("the port was taken meanwhile: %v", err)
	}
	asked := 0
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked++
		w.Write([]byte(`{"default_generation_settings":{"n_ctx":4096},"total_slots":2}`))
	})}}
	srv.Start()
	defer srv.Close()
	for range 2 {
		if slot := om.idSlot(context.Background()); slot == nil || *slot != 0 {
			t.Errorf("slot %v once the server listens, want 0", slot)
		}
	}
	if asked != 1 {
		t.Errorf("GET /props asked %d times once the server listened, want 1", asked)
	}
}
