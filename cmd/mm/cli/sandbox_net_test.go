package cli

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/sandbox"
)

// With --network off, the bash tool's command cannot connect to a listener
// of the test on 127.0.0.1, and the model reads why; with the network on,
// it connects.
func TestNetworkOffThroughMM(t *testing.T) {
	if s := sandbox.Probe(); !s.Net() {
		t.Skipf("this kernel's Landlock has no network rules (ABI %d): %s", s.ABI, s.Why)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dir := t.TempDir()
	script := fmt.Sprintf(`rules:
  - afterTool: bash
    say: "{{output}}"
  - when: connect
    calls:
      - name: bash
        args: {command: "exec 3<>/dev/tcp/127.0.0.1/%d && echo connected"}
`, ln.Addr().(*net.TCPAddr).Port)
	for name, content := range map[string]string{"agent.yaml": "model: script/script.yaml\n", "script.yaml": script} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	out, _ := runIn(t, dir, t.TempDir(), "", "--yolo", "--network", "off", "-p", "connect")
	for _, want := range []string{": Permission denied\n", "\n[sandbox: the network is off: connecting and listening over TCP are not allowed]\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("--network off: the answer lacks %q:\n%s", want, out)
		}
	}
	// The first connection the listener accepts is the test's own: mm's
	// command never reached it.
	mine, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer mine.Close()
	got, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	got.Close()
	if got.RemoteAddr().String() != mine.LocalAddr().String() {
		t.Errorf("the listener accepted %s first, not the test's %s", got.RemoteAddr(), mine.LocalAddr())
	}

	if out, _ := runIn(t, dir, t.TempDir(), "", "--yolo", "-p", "connect"); out != "connected\n" {
		t.Errorf("network on: %q", out)
	}
}
