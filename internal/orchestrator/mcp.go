package orchestrator

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/tools"
	"github.com/mm-agent/mm/internal/tracing"
)

// MCPServer is an MCP server over stdio that an editor adds to a session
// (ACP session/new), beside the configuration's mcpServers. It is
// tools.MCPServer, named here so that front ends need not import tools.
type MCPServer = tools.MCPServer

// MCPStatus says how one MCP server of a session is doing.
type MCPStatus struct {
	Name string
	// Tools are the names its tools are offered under (<server>__<tool>).
	Tools []string
	// Err is why it did not start or stopped answering; nil while it runs.
	Err error
}

// mcpList is the configuration's servers, then the editor's; an editor's
// server named like one of the configuration's is skipped with a warning.
// In the configuration's command, args and env values, $VAR and ${VAR} are
// replaced from environ, and $MM_CONFIG_DIR is the configuration's folder.
func mcpList(cfg *mmconfigs.Config, environ []string, extra []MCPServer) ([]tools.MCPServer, []string) {
	vars := envMap(environ)
	vars["MM_CONFIG_DIR"] = cfg.Dir
	expand := func(s string) string { return os.Expand(s, func(k string) string { return vars[k] }) }
	var list []tools.MCPServer
	seen := map[string]bool{}
	for _, name := range cfg.MCPServerNames() {
		s := cfg.MCPServers[name]
		srv := tools.MCPServer{Name: name, Command: expand(s.Command)}
		for _, a := range s.Args {
			srv.Args = append(srv.Args, expand(a))
		}
		if len(s.Env) > 0 {
			srv.Env = map[string]string{}
			for k, v := range s.Env {
				srv.Env[k] = expand(v)
			}
		}
		list = append(list, srv)
		seen[name] = true
	}
	var warnings []string
	for _, s := range extra {
		if seen[s.Name] {
			warnings = append(warnings, fmt.Sprintf("mcp server %q from the editor: the configuration has a server of that name; keeping the configuration's", s.Name))
			continue
		}
		seen[s.Name] = true
		list = append(list, s)
	}
	return list, warnings
}

// startMCP starts the session's MCP servers with start and offers their
// tools. A server that fails is a warning; the session goes on without it.
// Without a starter (a build that leaves internal/tools/mcptools out), every server
// is such a failure.
func (s *Session) startMCP(ctx context.Context, start tools.MCPStarter, extra []MCPServer) {
	list, warnings := mcpList(s.cfg, s.environ, extra)
	s.warnings = append(s.warnings, warnings...)
	if len(list) == 0 {
		return
	}
	if start == nil {
		start = startWithoutClient
	}
	// The servers join the trace, as the hooks and tools do.
	set, errs := start(ctx, list, tools.Env{Cwd: s.cwd, Environ: tracing.Environ(ctx, s.environ)}, 0)
	for _, err := range errs {
		s.warnings = append(s.warnings, err.Error())
	}
	s.mcp = set
	for _, t := range set.Tools() {
		name := t.Spec().Name
		if _, taken := s.tools[name]; taken {
			what := "a built-in tool"
			if slices.ContainsFunc(s.cfg.WasmTools, func(d tools.WasmDef) bool { return d.Name == name }) {
				what = "a wasm tool of the configuration"
			}
			s.warnings = append(s.warnings, fmt.Sprintf("mcp tool %s: %s has that name; it is not offered", name, what))
			continue
		}
		s.tools[name] = t
		s.order = append(s.order, name)
	}
}

// Warnings are what went wrong while the session started (an MCP server
// that did not start), for the front end to show once.
func (s *Session) Warnings() []string { return append([]string(nil), s.warnings...) }

// MCPServers reports the session's MCP servers.
func (s *Session) MCPServers() []MCPStatus {
	if s.mcp == nil {
		return nil
	}
	return mcpStatuses(s.mcp)
}

// closeMCP stops the session's MCP servers, if it started any.
func (s *Session) closeMCP() error {
	if s.mcp == nil {
		return nil
	}
	return s.mcp.Close()
}

// mcpStatuses is the status of every server of set, by name.
func mcpStatuses(set tools.MCPTools) []MCPStatus {
	var out []MCPStatus
	for _, st := range set.Servers() {
		out = append(out, MCPStatus{Name: st.Name, Tools: st.Tools, Err: st.Err})
	}
	return out
}

// MCPBanner is the banner's MCP part: "mcp: fs(14), everything(failed)", or
// "" without servers.
func (s *Session) MCPBanner() string {
	sts := s.MCPServers()
	if len(sts) == 0 {
		return ""
	}
	parts := make([]string, 0, len(sts))
	for _, st := range sts {
		if st.Err != nil {
			parts = append(parts, st.Name+"(failed)")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s(%d)", st.Name, len(st.Tools)))
	}
	return "mcp: " + strings.Join(parts, ", ")
}

// ProbeMCP starts a configuration's MCP servers with start, reports their
// tools or start errors, and stops them (mm check). A nil start (a test's)
// reports every server as lacking an MCP client.
func ProbeMCP(ctx context.Context, start tools.MCPStarter, cfg *mmconfigs.Config, cwd string, environ []string) []MCPStatus {
	list, _ := mcpList(cfg, environ, nil)
	if len(list) == 0 {
		return nil
	}
	if start == nil {
		start = startWithoutClient
	}
	set, _ := start(ctx, list, tools.Env{Cwd: cwd, Environ: environ}, 0)
	defer set.Close()
	return mcpStatuses(set)
}
