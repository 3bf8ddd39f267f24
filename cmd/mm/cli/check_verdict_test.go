package cli

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tinyWasm is the smallest WASI command: a _start that returns at once (a
// hook that answers nothing: continue). Written here, it needs no build.
var tinyWasm = []byte{
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
	0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // types: func () -> ()
	0x03, 0x02, 0x01, 0x00, // functions: one, of type 0
	0x07, 0x0a, 0x01, 0x06, '_', 's', 't', 'a', 'r', 't', 0x00, 0x00, // export _start
	0x0a, 0x04, 0x01, 0x02, 0x00, 0x0b, // code: an empty body
}

// verdictScript is a script model that runs the bash command a question
// names: what a preToolCall guard guards.
const verdictScript = `rules:
  - afterTool: bash
    say: "done: {{output}}"
  - when: '^run (.+)$'
    calls:
      - name: bash
        args: {command: "{{1}}"}
  - say: "{{question}}"
`

// TestCheckVerdictIsTheRuns: for each setup that fails at start or at
// the first question, mm check fails too, and says what the run says;
// for the same setup made right, both pass. A guard hook that fails open
// is named so by check, and the run lets the tool run.
func TestCheckVerdictIsTheRuns(t *testing.T) {
	noModel := "model: none given — set model: <provider>/<model> in the file, $MM_MODEL or --model"
	firstStart := "[config error: (no configuration file): model: none given — mm init writes an agent.yaml for the model server it finds; or try mm without a server: mm --model echo/any]"
	unknown := `unknown provider "nope"`
	tests := []struct {
		name  string
		files map[string]string
		env   []string
		// check and run are the arguments of mm check and of the run.
		check, run []string
		// fail is what both say on stderr when the setup fails; "" when
		// it works (both exit 0).
		fail string
		// checkAlso is what check alone adds (a guard that fails open).
		checkAlso string
		// runExit is the run's status when it fails: 1 for an error at
		// start, 0 for a hook that failed and let the turn go on.
		runExit int
		// ran names a file the run's tool call makes: the guard let it.
		ran string
		// needs is a program the case needs on $PATH.
		needs string
	}{
		{name: "no file, no model", run: []string{"-p", "hi"}, fail: firstStart, runExit: 1},
		{name: "empty file", files: map[string]string{"agent.yaml": ""}, run: []string{"-p", "hi"},
			fail: "[config error: agent.yaml: " + noModel + "]", runExit: 1},
		{name: "empty model", files: map[string]string{"agent.yaml": "model:\n"}, run: []string{"-p", "hi"},
			fail: "[config error: agent.yaml: " + noModel + "]", runExit: 1},
		{name: "no model key", files: map[string]string{"agent.yaml": "system: be brief\n"}, run: []string{"-p", "hi"},
			fail: "[config error: agent.yaml: " + noModel + "]", runExit: 1},
		{name: "no model, MM_MODEL", files: map[string]string{"agent.yaml": "model:\n"}, env: []string{"MM_MODEL=echo/any"},
			run: []string{"-p", "hi"}},
		{name: "no file, MM_MODEL unknown", env: []string{"MM_MODEL=nope/x"}, run: []string{"-p", "hi"},
			fail: unknown, runExit: 1},
		{name: "--model over the file's", files: map[string]string{"agent.yaml": "model: echo/any\n"},
			check: []string{"--model", "nope/x"}, run: []string{"-p", "--model", "nope/x", "hi"}, fail: unknown, runExit: 1},
		{name: "--model over no model", files: map[string]string{"agent.yaml": "model:\n"},
			check: []string{"--model", "echo/any"}, run: []string{"-p", "--model", "echo/any", "hi"}},
		{name: "a guard's script is missing", files: map[string]string{
			"agent.yaml":  "model: script/script.yaml\nhooks:\n  preToolCall:\n    - command: sh \"$MM_CONFIG_DIR/hooks/nope.sh\"\n",
			"script.yaml": verdictScript,
		}, run: []string{"-p", "--yolo", "run touch ran.txt"},
			fail:      "/hooks/nope.sh",
			checkAlso: "; this guard fails open: with onError: warn the tool calls it matches run when it fails — set onError: fail to deny them instead",
			ran:       "ran.txt"},
		{name: "a guard's Node.js script is missing", needs: "node", files: map[string]string{
			"agent.yaml":  "model: script/script.yaml\nhooks:\n  preGeneration:\n    - command: node \"$MM_CONFIG_DIR/hooks/nope.js\"\n",
			"script.yaml": verdictScript,
		}, run: []string{"-p", "hi"},
			fail:      "/hooks/nope.js",
			checkAlso: "; this guard fails open: with onError: warn the turn goes on without it when it fails — set onError: fail to stop the turn instead"},
		{name: "a guard's script is missing, onError: fail", files: map[string]string{
			"agent.yaml":  "model: script/script.yaml\nhooks:\n  preToolCall:\n    - command: sh \"$MM_CONFIG_DIR/hooks/nope.sh\"\n      onError: fail\n",
			"script.yaml": verdictScript,
		}, run: []string{"-p", "--yolo", "run touch ran.txt"}, fail: "/hooks/nope.sh"},
		{name: "a guard's script is there", files: map[string]string{
			"agent.yaml":     "model: script/script.yaml\nhooks:\n  preToolCall:\n    - command: sh \"$MM_CONFIG_DIR/hooks/guard.sh\"\n",
			"hooks/guard.sh": "exit 0\n",
			"script.yaml":    verdictScript,
		}, run: []string{"-p", "--yolo", "run touch ran.txt"}, ran: "ran.txt"},
		{name: "a wasm guard's read folder is missing", files: map[string]string{
			"agent.yaml":  "model: script/script.yaml\nhooks:\n  preToolCall:\n    - wasm: tiny.wasm\n      read: [nope]\n",
			"script.yaml": verdictScript,
			"tiny.wasm":   string(tinyWasm),
		}, run: []string{"-p", "--yolo", "run touch ran.txt"},
			fail:      "the folder nope this module may see does not exist in ",
			checkAlso: "; this guard fails open: with onError: warn the tool calls it matches run when it fails — set onError: fail to deny them instead",
			ran:       "ran.txt"},
		{name: "an A2A agent's token is unset", files: map[string]string{
			"agent.yaml": "model: echo/any\nmmConfigs:\n  rev: {a2a: 'A2AURL/', tokenEnv: MM_TEST_REV_TOKEN}\n",
		}, run: []string{"--ask", "rev", "hi"},
			fail: `agent "rev": $MM_TEST_REV_TOKEN is empty: set it to the agent's token (tokenEnv: in its mmConfigs entry)`, runExit: 1},
	}
	// An A2A agent that serves its card to anyone: today's check of the
	// card passes whatever the token.
	card := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/agent-card.json" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"name": "rev", "version": "1.0", "description": "d", "url": "http://" + r.Host + "/rpc", "protocolVersion": "0.3.0",
			"preferredTransport": "JSONRPC", "capabilities": map[string]any{"streaming": true}, "defaultInputModes": []string{"text/plain"},
			"defaultOutputModes": []string{"text/plain"}, "skills": []any{},
		})
	}))
	defer card.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := exec.LookPath(tt.needs); tt.needs != "" && err != nil {
				t.Skipf("%s is not on $PATH", tt.needs)
			}
			dir := t.TempDir()
			for name, body := range tt.files {
				path := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(strings.ReplaceAll(body, "A2AURL", card.URL)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			env := append(os.Environ(), "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=", "MM_TEST_REV_TOKEN=", "HOME="+dir)
			env = append(env, tt.env...)
			_, checkErr, checkCode := runVerdict(t, dir, env, append([]string{"check"}, tt.check...)...)
			_, runErr, runCode := runVerdict(t, dir, env, tt.run...)

			if tt.fail == "" {
				if checkCode != 0 || runCode != 0 {
					t.Fatalf("check exited %d (%s), the run %d (%s); want both 0", checkCode, checkErr, runCode, runErr)
				}
			} else {
				if checkCode != 1 || !strings.Contains(checkErr, tt.fail) {
					t.Errorf("check exited %d, said\n%s\nwant 1, saying %q", checkCode, checkErr, tt.fail)
				}
				if runCode != tt.runExit || !strings.Contains(runErr, tt.fail) {
					t.Errorf("the run exited %d, said\n%s\nwant %d, saying %q", runCode, runErr, tt.runExit, tt.fail)
				}
			}
			if tt.checkAlso != "" && !strings.Contains(checkErr, tt.checkAlso) {
				t.Errorf("check said\n%s\nwant it to say %q", checkErr, tt.checkAlso)
			}
			if tt.checkAlso == "" && strings.Contains(checkErr, "fails open") {
				t.Errorf("check said\n%s\nof a hook that does not fail open", checkErr)
			}
			if _, err := os.Stat(filepath.Join(dir, "ran.txt")); (err == nil) != (tt.ran != "") {
				t.Errorf("the tool ran: %v; want %v", err == nil, tt.ran != "")
			}
		})
	}
}

// runVerdict runs the mm binary in dir with env: its stdout, stderr and exit
// status.
func runVerdict(t *testing.T, dir string, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(mmBin, args...)
	cmd.Dir, cmd.Env = dir, env
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errb.String(), 0
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitCode()
	}
	t.Fatalf("mm %s: %v", strings.Join(args, " "), err)
	return "", "", 0
}
