package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

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
