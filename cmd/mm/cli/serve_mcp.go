package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/frontend/mcp"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/sessions"
)

// serveMCPFlags adds mm serve's MCP flags: the two doors, and the bound
// on calls running at once.
func serveMCPFlags(cmd *cobra.Command, sf *serveFlags) {
	cmd.Flags().BoolVar(&sf.mcp, "mcp", false, "serve the configuration's agents as MCP tools over stdio (what an MCP client starts)")
	cmd.Flags().StringVar(&sf.mcpHTTP, "mcp-http", "", "serve the configuration's agents as MCP tools over streamable HTTP at host:port, path /mcp")
	cmd.Flags().IntVar(&sf.maxCalls, "max-calls", mcp.DefaultMaxCalls, "MCP: how many tool calls may run at once; more are answered with a tool error")
}

// runServeMCP is mm serve --mcp and mm serve --mcp-http; changed says
// which flags the command line gave.
func runServeMCP(ctx context.Context, end *ending, s *streams, f *flags, sf serveFlags, changed func(string) bool) int {
	if code := checkMCPFlags(s, sf, changed); code != 0 {
		return code
	}
	cwd, err := s.Getwd()
	if err != nil {
		fmt.Fprintf(s.ErrOut, "mm serve: %v\n", err)
		return 1
	}
	cfg, cfgErr := readConfig(f, s, cwd)
	if cfgErr == nil && sessionOptions(f, s, cfg, cwd).Running().Model == "" {
		cfgErr = &mmconfigs.Error{Path: shownPath(cfg.Path), Msg: "model: none given — set model: <provider>/<model> in the file, $MM_MODEL or --model"}
	}
	if cfgErr != nil {
		frontend.ReportError(s.ErrOut, cfgErr)
		if !sf.mcp {
			return 1
		}
		// Over stdio the client started mm: it learns why from the
		// initialize it is refused, and shows it to its person.
		in, closeIn := s.lineIn(ctx)
		defer closeIn()
		if err := mcp.ServeStdio(ctx, in, nopWriteCloser{s.Out}, mcp.Options{ConfigError: cfgErr, Name: agentName(configPath(f, s, cwd)), Version: version()}); err != nil {
			fmt.Fprintf(s.ErrOut, "mm serve: %v\n", err)
		}
		return 1
	}
	if end != nil {
		end.also(os.Interrupt)
	}
	opts := mcpOptions(f, s, sf, cfg, cwd)
	if sf.mcp {
		in, closeIn := s.lineIn(ctx)
		defer closeIn()
		err = mcp.ServeStdio(ctx, in, nopWriteCloser{s.Out}, opts)
	} else {
		return serveMCPHTTP(ctx, s, sf, opts)
	}
	if err != nil {
		fmt.Fprintf(s.ErrOut, "mm serve: %v\n", err)
		return 1
	}
	return 0
}

// checkMCPFlags refuses flags that do not go with the door asked for.
func checkMCPFlags(s *streams, sf serveFlags, changed func(string) bool) int {
	doors := 0
	for _, on := range []bool{sf.a2a != "", sf.mcp, sf.mcpHTTP != ""} {
		if on {
			doors++
		}
	}
	if doors > 1 {
		fmt.Fprintln(s.ErrOut, "mm serve: give one of --a2a, --mcp and --mcp-http")
		return 2
	}
	if sf.maxCalls < 1 {
		fmt.Fprintf(s.ErrOut, "mm serve: --max-calls %d: want a number above 0\n", sf.maxCalls)
		return 2
	}
	if sf.mcp {
		// The client that started mm over stdio is on this machine, and
		// the only one: no token, origin or connection to bound.
		for _, name := range []string{"token-env", "no-token", "allow-origin", "max-connections"} {
			if changed(name) {
				fmt.Fprintf(s.ErrOut, "mm serve: --%s is for a server over the network (--a2a, --mcp-http), not --mcp over stdio\n", name)
				return 2
			}
		}
	}
	if changed("max-tasks") {
		fmt.Fprintln(s.ErrOut, "mm serve: --max-tasks is for --a2a: MCP's bound on calls running at once is --max-calls")
		return 2
	}
	return 0
}

// mcpOptions are the options of the MCP server of cfg.
func mcpOptions(f *flags, s *streams, sf serveFlags, cfg *mmconfigs.Config, cwd string) mcp.Options {
	o := sessionOptions(f, s, cfg, cwd)
	withWasm(&o, wasmRuntime(cfg))
	opts := mcp.Options{
		Session: o, Name: agentName(cfg.Path), Description: cfg.Description, Version: version(),
		Agents: orchestrator.Askable(cfg), MaxCalls: sf.maxCalls, Log: s.ErrOut,
	}
	if dir := sessions.Dir(s.Getenv); dir != "" && !sf.noSave && cfg.Persist {
		opts.Store = mcpStore{dir: filepath.Join(dir, servedFolder)}
	}
	return opts
}

// serveMCPHTTP is mm serve --mcp-http, behind the door and bounds of
// --a2a; it returns the exit code.
func serveMCPHTTP(ctx context.Context, s *streams, sf serveFlags, opts mcp.Options) int {
	host, token, tokenFile, code := doorOf(s, sf, "--mcp-http", sf.mcpHTTP)
	if code != 0 {
		return code
	}
	ln, err := net.Listen("tcp", sf.mcpHTTP)
	if err != nil {
		fmt.Fprintf(s.ErrOut, "mm serve: %v\n", err)
		return 1
	}
	fmt.Fprintf(s.ErrOut, "mm serve: %s's agents over MCP at http://%s/mcp\n", opts.Name, ln.Addr())
	if tokenFile != "" {
		fmt.Fprintf(s.ErrOut, "mm serve: clients send \"Authorization: Bearer <token>\" with the token in %s\n", tokenFile)
	}
	opts.Token, opts.Host, opts.AllowOrigins, opts.MaxConns = token, host, sf.allowOrigins, sf.maxConns
	if err := mcp.ServeHTTP(ctx, ln, opts); err != nil {
		fmt.Fprintf(s.ErrOut, "mm serve: %v\n", err)
		return 1
	}
	return 0
}

// mcpStore saves each MCP session's session in the sessions folder's
// served/ folder, as mm serve --a2a saves its contexts'. An MCP session
// has no id a client comes back with: each one is a new session.
type mcpStore struct{ dir string }

// Open is mcp.Store's.
func (st mcpStore) Open(o orchestrator.Options) (orchestrator.Recorder, func() error, error) {
	w, err := sessions.Create(st.dir, sessionHeader(o))
	if err != nil {
		return nil, nil, err
	}
	return w, w.Close, nil
}

// nopWriteCloser is stdout for the MCP SDK, which closes what it writes
// to: mm's stdout stays open until mm exits.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
