package cli

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mm-agent/mm/internal/mustend"
	"github.com/mm-agent/mm/internal/nodetest"
)

// TestMCPScripts runs testdata/mcp/*.txtar against real MCP servers from
// npm (test/mcp, pinned in its lock file): $MCPBIN holds their commands.
func TestMCPScripts(t *testing.T) {
	dir := filepath.Join(repoRoot(), "test", "mcp")
	nodetest.Require(t, dir)
	testscript.Run(t, testscript.Params{
		Dir: "testdata/mcp",
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", filepath.Dir(mmBin)+string(os.PathListSeparator)+env.Getenv("PATH"))
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache"))
			env.Setenv("HOME", env.WorkDir)
			for _, k := range []string{"MM_MODEL", "MM_CONFIG", "MM_ASKED_DEPTH", "MM_ASK_CHAIN", "MM_BIN"} {
				env.Setenv(k, "")
			}
			env.Setenv("MCPBIN", filepath.Join(dir, "node_modules", ".bin"))
			env.Setenv("MCPDIR", dir)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"nochildren": cmdNoChildren,
		},
	})
}

// TestMCPServerDiesWithMM: an MCP server does not outlive an mm that was
// killed outright (SIGKILL, no chance to stop its servers), even one that
// keeps running when its stdin closes.
func TestMCPServerDiesWithMM(t *testing.T) {
	mcpDir := filepath.Join(repoRoot(), "test", "mcp")
	nodetest.Require(t, mcpDir)
	dir := t.TempDir()
	cfg := "model: echo/x\nmcpServers:\n  crashy:\n    command: node\n    args: [" + filepath.Join(mcpDir, "crashy.mjs") + "]\n    env: {MCP_STUBBORN: \"1\"}\n"
	if err := os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(mmBin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MM_CONFIG=", "XDG_CACHE_HOME="+filepath.Join(dir, ".cache"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	banner, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.Contains(banner, "mcp: crashy(1)") {
		t.Fatalf("banner %q, %v", banner, err)
	}
	if len(processesMatching("crashy.mjs", dir)) != 1 {
		t.Fatalf("the server is not running: %q", processesMatching("crashy.mjs", dir))
	}
	cmd.Process.Kill()
	cmd.Wait()
	if !mustend.Eventually(10*time.Second, func() bool { return len(processesMatching("crashy.mjs", dir)) == 0 }) {
		t.Fatalf("the MCP server outlived mm: %q", processesMatching("crashy.mjs", dir))
	}
}
