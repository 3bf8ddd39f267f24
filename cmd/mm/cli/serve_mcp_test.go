package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mm-agent/mm/internal/nodetest"
)

// TestServeMCP runs testdata/mcpserve/*.txtar: mm serve --mcp and
// --mcp-http, driven by real MCP clients from npm (test/mcp-clients,
// pinned in its lock file): $CLIENT is a client on the official
// TypeScript SDK (client.mjs), $INSPECTOR the MCP Inspector, whose --cli
// mode a script runs, $CLAUDE Claude Code, pointed at a scripted model API
// on loopback (TestServeMCPClaudeCode).
func TestServeMCP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts MCP clients on Node.js: not in the -short lane")
	}
	dir := filepath.Join(repoRoot(), "test", "mcp-clients")
	nodetest.Require(t, dir)
	testscript.Run(t, testscript.Params{
		Dir: "testdata/mcpserve",
		Setup: func(env *testscript.Env) error {
			if err := setupScript(env); err != nil {
				return err
			}
			env.Setenv("CLIENT", filepath.Join(dir, "client.mjs"))
			env.Setenv("INSPECTOR", filepath.Join(dir, "node_modules", ".bin", "inspector"))
			// The Inspector keeps a catalog of servers in its home: the
			// script's own.
			env.Setenv("MCP_CATALOG_PATH", filepath.Join(env.WorkDir, ".mcp-inspector", "mcp.json"))
			// It keeps no secret of a test's in the system's keychain.
			env.Setenv("MCP_INSPECTOR_SECRET_STORE", "memory")
			env.Setenv("NO_COLOR", "1")
			if p := os.Getenv("PATH"); p != "" {
				env.Setenv("PATH", filepath.Dir(mmBin)+string(os.PathListSeparator)+p)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"nochildren": cmdNoChildren,
			"waitfile":   cmdWaitFile,
			"freeport":   cmdFreePort,
			"waitport":   cmdWaitPort,
			"httpreq":    cmdHTTPReq,
		},
	})
}
