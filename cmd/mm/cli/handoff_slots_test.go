package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llamatest"
)

// TestLlamaCppHandOffCache: on a llama-server of several slots, a
// hand-off does not cost the parent its cache. A line-mode session of two
// turns, /ask-expert (another agent on the same server, with the same
// system prompt and tools: more than a tenth of its prompt is in the
// parent's slot, which draws llama-server's own pick there), and
// a third turn, which should find all of the second's request and reply
// in its slot's cache. Each agent names its slot (id_slot); the same
// requests without it, replayed on a fresh server, show what mm lost
// before it named them: the asked agent's request took the parent's slot.
// With one slot there is nothing to choose (mm check advises --parallel).
func TestLlamaCppHandOffCache(t *testing.T) {
	for _, tc := range []struct {
		slots int
		kept  bool
	}{
		{slots: 1, kept: false},
		{slots: 2, kept: true},
		{slots: 4, kept: true},
	} {
		t.Run(fmt.Sprintf("%d slots", tc.slots), func(t *testing.T) {
			reply := func(llamatest.Request) llamatest.Reply { return llamatest.Reply{Content: "Noted."} }
			srv := llamatest.Start(llamatest.Options{NCtx: 1 << 16, Slots: tc.slots, Reply: reply})
			defer srv.Close()
			dir := t.TempDir()
			at := "model: llamacpp/test\nproviders:\n  llamacpp:\n    baseURL: " + srv.URL + "\n"
			for name, body := range map[string]string{
				"agent.yaml":  at + "mmConfigs:\n  expert: expert.yaml\n",
				"expert.yaml": at,
			} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			in := "the first question, about the old town\nthe second question, about its bridges\n/ask-expert how old is the stone bridge?\nthe third question, about the river\n"
			if out, errOut, code := mmAt(t, dir, "", in); code != 0 {
				t.Fatalf("exit %d, stderr %q, stdout %q", code, errOut, out)
			}
			stats, bodies := srv.Stats(), srv.Bodies()
			if len(stats) != 4 {
				t.Fatalf("%d chat requests, want 4 (two turns, the asked agent's, a turn): %+v", len(stats), stats)
			}
			kept := func(stats []llamatest.Stat) bool { return stats[3].CacheN >= stats[1].Tokens }
			t.Logf("%d slot(s): the turn after the hand-off found %d of its %d prompt tokens in slot %d's cache (the turn before it: %d tokens; the asked agent's request: slot %d)",
				tc.slots, stats[3].CacheN, stats[3].Tokens, stats[3].Slot, stats[1].Tokens, stats[2].Slot)
			if got := kept(stats); got != tc.kept {
				t.Errorf("the parent's cache kept: %v, want %v (%+v)", got, tc.kept, stats)
			}
			named := 0
			for _, b := range bodies {
				if bytes.Contains(b, []byte(`"id_slot"`)) {
					named++
				}
			}
			if want := map[bool]int{true: 4}[tc.slots > 1]; named != want {
				t.Errorf("%d requests name a slot, want %d", named, want)
			}
			if tc.slots == 1 {
				return
			}
			before := replayWithoutSlot(t, bodies, tc.slots)
			t.Logf("without id_slot: the turn after the hand-off found %d of its %d prompt tokens in slot %d's cache (the asked agent's request: slot %d)",
				before[3].CacheN, before[3].Tokens, before[3].Slot, before[2].Slot)
			if kept(before) {
				t.Errorf("without id_slot the parent kept its cache too: the test does not show what naming the slot changes (%+v)", before)
			}
		})
	}
}

// replayWithoutSlot sends bodies, without their id_slot, to a fresh
// server of n slots, in order, and returns its counts.
func replayWithoutSlot(t *testing.T, bodies [][]byte, n int) []llamatest.Stat {
	t.Helper()
	srv := llamatest.Start(llamatest.Options{NCtx: 1 << 16, Slots: n, Reply: func(llamatest.Request) llamatest.Reply {
		return llamatest.Reply{Content: "Noted."}
	}})
	defer srv.Close()
	for _, body := range bodies {
		var req map[string]json.RawMessage
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatal(err)
		}
		delete(req, "id_slot")
		b, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.Post(srv.URL+"/chat/completions", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	return srv.Stats()
}

// TestCheckLlamaCppSlots: mm check says to run llama-server with
// --parallel 2 for an agent that asks others on a server of one slot,
// nothing for one of two, and the condition when the server does not
// answer.
func TestCheckLlamaCppSlots(t *testing.T) {
	for _, tc := range []struct {
		name  string
		slots int
		want  string
	}{
		{name: "one slot", slots: 1, want: "  llamacpp: a hand-off takes the asking agent's cache slot: llama-server at URL runs one slot; start it with --parallel 2 (or more), and mm gives each agent of a chain a slot of its own\n"},
		{name: "two slots", slots: 2},
		{name: "no server", want: "  llamacpp: a hand-off takes the asking agent's cache slot unless llama-server runs two slots or more (--parallel 2; recent builds run 4 by default): mm gives each agent of a chain a slot of its own\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := "http://127.0.0.1:9/v1" // nothing listens on the discard port
			if tc.slots > 0 {
				srv := llamatest.Start(llamatest.Options{NCtx: 4096, Slots: tc.slots})
				defer srv.Close()
				url = srv.URL
			}
			dir := t.TempDir()
			at := "model: llamacpp/test\nproviders:\n  llamacpp:\n    baseURL: " + url + "\n"
			for name, body := range map[string]string{
				"agent.yaml":  at + "mmConfigs:\n  expert: expert.yaml\n",
				"expert.yaml": at,
			} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, errOut, code := mmAt(t, dir, "", "", "check", "--config", "agent.yaml")
			want := "mm devel | config: agent.yaml | model: llamacpp/test | agents: expert | sandbox: workspace, network on | yolo: off\n" +
				strings.ReplaceAll(tc.want, "URL", strings.TrimSuffix(url, "/v1")) +
				"mm devel | config: expert.yaml | model: llamacpp/test | sandbox: workspace, network on | yolo: off\n"
			if out != want || code != 0 {
				t.Errorf("mm check: exit %d, stdout\n%s\nwant\n%s\nstderr %q", code, out, want, errOut)
			}
		})
	}
}
