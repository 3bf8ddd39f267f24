package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mm-agent/mm/internal/fakegemini"
	"github.com/mm-agent/mm/internal/nodetest"
)

// peerStarts bounds a wait for an agent started with Node.js (Gemini CLI)
// to do its first thing: longer than the startTimeout the tests give it
// (2m), which a loaded machine needs when several start at once (the peers'
// scripts run side by side).
const peerStarts = 3 * time.Minute

// TestPeers runs testdata/peers/*.txtar: mm asking agents that are not mm,
// by command, as a team would. $PEERS is test/peers/node_modules/.bin:
// Gemini CLI (gemini), pointed by `fakegemini start` at a Gemini API on
// loopback, and the ACP TypeScript SDK ($ACP_EXAMPLE_AGENT, its example
// agent).
func TestPeers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Gemini CLI and Node.js agents: not in the -short lane")
	}
	peers := filepath.Join(repoRoot(), "test", "peers")
	nodetest.Require(t, peers)
	testscript.Run(t, testscript.Params{
		Dir: "testdata/peers",
		Setup: func(env *testscript.Env) error {
			if err := setupScript(env); err != nil {
				return err
			}
			env.Setenv("PEERS", filepath.Join(peers, "node_modules", ".bin"))
			env.Setenv("ACP_EXAMPLE_AGENT", filepath.Join(peers, "node_modules", "@agentclientprotocol", "sdk", "dist", "examples", "agent.js"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"fakegemini": cmdFakeGemini,
			"nochildren": cmdNoChildren,
			"waitfile":   cmdWaitFile,
		},
	})
}

// fakeGeminis are the scripts' fake Gemini APIs, one a script at most.
var fakeGeminis sync.Map // *testscript.TestScript → *fakegemini.Server

// cmdFakeGemini drives a script's fake Gemini API:
//
//	fakegemini start rules.yaml   start it, with the rules of the file (see
//	                              fakegemini.Rules), and point Gemini CLI at it
//	                              (the variables of fakegemini's CLIEnv)
//	fakegemini asked file         write what the model was asked, request by
//	                              request: how many turns the conversation
//	                              has, and the question, or the function's response
//	fakegemini bodies file        write the requests' bodies, one a line
//	fakegemini wait n             wait until it has received n requests
func cmdFakeGemini(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! fakegemini")
	}
	if len(args) == 0 {
		ts.Fatalf("usage: fakegemini start rules.yaml | asked file | bodies file | wait n")
	}
	if args[0] == "start" {
		if len(args) != 2 {
			ts.Fatalf("usage: fakegemini start rules.yaml")
		}
		answer, err := fakegemini.ParseRules(args[1], []byte(ts.ReadFile(args[1])))
		ts.Check(err)
		srv := fakegemini.New(answer)
		ts.Defer(srv.Close)
		fakeGeminis.Store(ts, srv)
		env, err := srv.CLIEnv(ts.MkAbs("gemini-home"))
		ts.Check(err)
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			ts.Setenv(k, v)
		}
		return
	}
	v, ok := fakeGeminis.Load(ts)
	if !ok {
		ts.Fatalf("fakegemini %s: no fake Gemini API started (fakegemini start rules.yaml)", args[0])
	}
	srv := v.(*fakegemini.Server)
	switch {
	case args[0] == "asked" && len(args) == 2:
		var b strings.Builder
		for i, r := range srv.Generations() {
			fmt.Fprintf(&b, "-- request %d: %s %s, turns: %d\n", i+1, r.Model, r.Method, len(r.Body.Contents))
			if fr, ok := r.FunctionResponse(); ok {
				fmt.Fprintf(&b, "[%s responded] %s\n", fr.Name, fakegemini.ResponseText(fr))
			} else {
				b.WriteString(r.UserText() + "\n")
			}
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o644))
	case args[0] == "bodies" && len(args) == 2:
		var b strings.Builder
		for _, r := range srv.Requests() {
			b.Write(r.Raw)
			b.WriteByte('\n')
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o644))
	case args[0] == "wait" && len(args) == 2:
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		ctx, cancel := context.WithTimeout(context.Background(), peerStarts)
		defer cancel()
		for {
			next := srv.Received() // before counting: no request slips between
			if len(srv.Requests()) >= n {
				return
			}
			select {
			case <-next:
			case <-ctx.Done():
				ts.Fatalf("the fake Gemini API received %d requests within %v, not %d", len(srv.Requests()), peerStarts, n)
			}
		}
	default:
		ts.Fatalf("usage: fakegemini start rules.yaml | asked file | bodies file | wait n")
	}
}
