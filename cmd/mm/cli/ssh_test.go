package cli

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/mustend"
)

// sshFiles are the configurations of the ssh tests, in the sshd's folder:
// agent.yaml asks "expert", an mm over ssh (the just-built binary, on the
// test's own sshd), and agents that cannot be reached for each reason.
func sshFiles(s *sshd) map[string]string {
	agent := func(host, extra string) string {
		return fmt.Sprintf("    ssh: %s\n    sshArgs: [-F, %s]\n    config: %s\n%s", host, s.clientConfig, s.path("remote.yaml"), extra)
	}
	withMM := fmt.Sprintf("    mm: %s\n", mmBin)
	return map[string]string{
		"agent.yaml": "model: echo/main\nmmConfigs:\n  expert:\n" + agent("mmtest", withMM+"    description: the remote expert\n") +
			"  down:\n" + agent("closed", withMM) +
			"  mismatch:\n" + agent("mismatch", withMM) +
			"  nomm:\n" + agent("mmtest", "") +
			"hooks:\n  preAsk:\n    - command: cat >> ask.jsonl\n",
		"shallow.yaml": "model: echo/main\nmaxAskDepth: 1\nmmConfigs:\n  expert:\n" + agent("mmtest", withMM),
		"remote.yaml": `model: script/remote.s.yaml
yolo: true
mmConfigs:
  deep: deep.yaml
hooks:
  preGeneration:
    - command: cat >> "$MM_CONFIG_DIR/remote.jsonl"; pwd > "$MM_CONFIG_DIR/pwd.txt"
    - command: if [ -e "$MM_CONFIG_DIR/slow" ]; then touch "$MM_CONFIG_DIR/answering"; sleep 60; fi
`,
		"remote.s.yaml": `rules:
  - afterTool: ask_agent
    say: "remote read: {{output}}"
  - when: '^deep: (.+)$'
    calls:
      - name: ask_agent
        args: {agent: deep, question: "{{1}}"}
  - say: "remote: {{question}}"
`,
		"deep.yaml": "model: echo/deep\n",
		// resume/agent.yaml asks "memory", an mm over ssh that says every
		// question its session holds.
		"resume/agent.yaml": "model: script/ask.s.yaml\nyolo: true\nmmConfigs:\n  memory:\n" +
			fmt.Sprintf("    ssh: mmtest\n    sshArgs: [-F, %s]\n    config: %s\n", s.clientConfig, s.path("memory.yaml")) + withMM,
		"resume/ask.s.yaml": `rules:
  - afterTool: ask_agent
    say: "main read: {{output}}"
  - when: '^ask (.+)$'
    calls:
      - name: ask_agent
        args: {agent: memory, question: "{{1}}"}
`,
		"memory.yaml":   "model: script/memory.s.yaml\n",
		"memory.s.yaml": "rules:\n  - say: \"heard: {{questions}}\"\n",
	}
}

// mmIn runs the built mm in dir and returns its stdout, stderr and how
// long it took.
func mmIn(t *testing.T, dir string, args ...string) (string, string, time.Duration) {
	t.Helper()
	cmd := exec.Command(mmBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MM_CONFIG=", "MM_MODEL=", "MM_ASKED_DEPTH=", "MM_ASK_CHAIN=", "MM_ASK_MAX_DEPTH=", "MM_BIN=")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	_ = cmd.Run()
	return out.String(), errb.String(), time.Since(start)
}

// noneLeft fails the test when an ACP child of the test's (a local ssh, a
// remote mm) still runs.
func noneLeft(t *testing.T, s *sshd) {
	t.Helper()
	gone := func() bool { return len(processesMatching("-acp", s.dir)) == 0 }
	if !mustend.Eventually(10*time.Second, gone) {
		t.Errorf("processes left behind: %s", strings.Join(processesMatching("-acp", s.dir), "; "))
	}
}

func TestSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an sshd and a dozen ssh connections: the full lane")
	}
	s := startSSHD(t)
	writeFiles(t, s.dir, sshFiles(s))
	home := ""
	if u, err := user.Current(); err == nil {
		home = u.HomeDir
	}

	t.Run("hand-off", func(t *testing.T) {
		out, errOut, _ := mmIn(t, s.dir, "--ask", "expert", "hello")
		if out != "remote: hello\n" || errOut != "" {
			t.Errorf("mm --ask expert: stdout %q, stderr %q", out, errOut)
		}
		// The depth travelled on the remote command line.
		if b, _ := os.ReadFile(s.path("remote.jsonl")); !strings.Contains(string(b), `"asked":{"depth":1}`) {
			t.Errorf("the remote mm's hook read %s, want asked.depth 1", b)
		}
		// Its sessions work in the login's home, not in a folder of this
		// machine.
		if b, _ := os.ReadFile(s.path("pwd.txt")); strings.TrimSpace(string(b)) != home {
			t.Errorf("the remote session's folder is %q, want the home %q", b, home)
		}
		want := fmt.Sprintf(`"ask":{"agent":"expert","config":%q,"agentHost":"mmtest","via":"cli"`, s.path("remote.yaml"))
		if b, _ := os.ReadFile(s.path("ask.jsonl")); !strings.Contains(string(b), want) {
			t.Errorf("preAsk read %s\nwant it to hold %s", b, want)
		}
		noneLeft(t, s)
	})

	t.Run("chain limit", func(t *testing.T) {
		// The asking agent's maxAskDepth 1 bounds the remote mm, whose own
		// limit is the default 3.
		out, _, _ := mmIn(t, s.dir, "--config", "shallow.yaml", "--ask", "expert", "deep: hi")
		if want := "remote read: [ask failed: ask refused: deep would run at depth 2, beyond maxAskDepth 1]\n"; out != want {
			t.Errorf("stdout %q, want %q", out, want)
		}
		noneLeft(t, s)
	})

	t.Run("check", func(t *testing.T) {
		out, errOut, _ := mmIn(t, s.dir, "check")
		if !strings.Contains(out, "\n  agent expert (ssh): answered initialize: mm devel\n") {
			t.Errorf("mm check: stdout %q", out)
		}
		for _, want := range []string{`start agent "down" (ssh closed)`, `start agent "mismatch" (ssh mismatch)`, `start agent "nomm" (ssh mmtest)`} {
			if !strings.Contains(errOut, "  "+want+": ") {
				t.Errorf("mm check: stderr %q, want a line for %s", errOut, want)
			}
		}
		noneLeft(t, s)
	})

	t.Run("resumed", func(t *testing.T) {
		// A resumed session's mm over ssh goes on with its own session
		// (session/load), saved on its host; a session that is not saved
		// tells it --no-save.
		dir := s.path("resume")
		asked := s.path("state/mm/sessions/asked")
		saved := func() int {
			files, _ := filepath.Glob(filepath.Join(asked, "*.jsonl"))
			return len(files)
		}
		before := saved() // the other hand-offs'
		steps := []struct {
			args  []string
			want  string
			saved int // the remote mm's sessions made since before
		}{
			{[]string{"-p", "ask first"}, "main read: heard: first\n", 1},
			{[]string{"--continue", "-p", "ask second"}, "main read: heard: first\n\nsecond\n", 1},
			{[]string{"--no-save", "-p", "ask third"}, "main read: heard: third\n", 1},
		}
		for _, st := range steps {
			out, errOut, _ := mmIn(t, dir, st.args...)
			if out != st.want {
				t.Errorf("mm %q: stdout %q, want %q; stderr %q", st.args, out, st.want, errOut)
			}
			if n := saved() - before; n != st.saved {
				t.Errorf("after mm %q the remote mm has %d new saved sessions, want %d", st.args, n, st.saved)
			}
		}
		noneLeft(t, s)
	})

	failures := []struct {
		agent string
		want  string // a regular expression for the whole of stderr
	}{
		{"down", `^\[ask: start agent "down" \(ssh closed\): exited \(exit status 255\): ssh: connect to host 127\.0\.0\.1 port \d+: Connection refused\]\n$`},
		{"mismatch", `^\[ask: start agent "mismatch" \(ssh mismatch\): exited \(exit status 255\): .*WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!.*\]\n$`},
		{"nomm", `^\[ask: start agent "nomm" \(ssh mmtest\): exited \(exit status 127\): .*mm: (command )?not found\]\n$`},
	}
	for _, f := range failures {
		t.Run(f.agent, func(t *testing.T) {
			out, errOut, took := mmIn(t, s.dir, "--ask", f.agent, "hello")
			if out != "" || !regexp.MustCompile(f.want).MatchString(errOut) {
				t.Errorf("mm --ask %s: stdout %q\nstderr %q\nwant %s", f.agent, out, errOut, f.want)
			}
			if strings.Count(errOut, "\n") != 1 {
				t.Errorf("stderr is %d lines, want one", strings.Count(errOut, "\n"))
			}
			t.Logf("failed in %v", took)
			noneLeft(t, s)
		})
	}
}

// TestSSHDropped kills the sshd, and the connection it serves, while the
// remote mm answers: the hand-off fails with one line, at once, and the
// local ssh is gone.
func TestSSHDropped(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an sshd: the full lane")
	}
	s := startSSHD(t)
	writeFiles(t, s.dir, sshFiles(s))
	writeFiles(t, s.dir, map[string]string{"slow": ""})
	done := make(chan [2]string)
	go func() {
		out, errOut, _ := mmIn(t, s.dir, "--ask", "expert", "hello")
		done <- [2]string{out, errOut}
	}()
	if !mustend.Eventually(time.Minute, func() bool { return fileExists(s.path("answering")) }) {
		t.Fatal("the remote mm never started answering")
	}
	s.kill()
	var res [2]string
	select {
	case res = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("mm --ask did not end once the connection dropped")
	}
	want := regexp.MustCompile(`^\[ask: agent "expert" \(ssh mmtest\) exited \(exit status 255\)(: .*)?\]\n$`)
	if res[0] != "" || !want.MatchString(res[1]) {
		t.Errorf("stdout %q, stderr %q; want %s", res[0], res[1], want)
	}
	t.Logf("stderr: %s", res[1])
	noneLeft(t, s)
}
