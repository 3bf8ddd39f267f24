package cli

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/mm-agent/mm/internal/frontend/a2a"
	"github.com/spf13/cobra"
)

// serveFlags are mm serve's own flags.
type serveFlags struct {
	a2a          string
	mcp          bool   // --mcp: MCP over stdio (serve_mcp.go)
	mcpHTTP      string // --mcp-http ADDR: MCP over streamable HTTP
	maxCalls     int
	tokenEnv     string
	noToken      bool
	allowOrigins []string
	maxTasks     int
	maxConns     int
	noSave       bool
}

// serveCmd is mm serve: the configuration as a service.
func serveCmd(f *flags, s *streams, end *ending) *cobra.Command {
	var sf serveFlags
	cmd := &cobra.Command{
		Use:   "serve --a2a ADDR | --mcp | --mcp-http ADDR",
		Short: "serve the configuration as an agent over A2A, or its agents as MCP tools, until SIGTERM or Ctrl-C",
		Long: `With --mcp (over stdio) or --mcp-http ADDR (streamable HTTP at /mcp), serves
the configuration's agents as MCP tools: one per agent of mmConfigs, each call a
hand-off under the configuration's preAsk and postAsk hooks ("via": "mcp"), and
the agent itself, each call one turn. A consent question goes to the client as
an elicitation, or is refused when the client cannot answer one.

With --a2a, serves the configuration as an A2A agent at ADDR (host:port): its card at
/.well-known/agent-card.json, JSON-RPC with streaming at /. Each A2A context is one
mm session, saved in the sessions folder's served/ folder (not with --no-save or
persist: false). Nobody can be asked for consent: tool calls run only with yolo: true
(or --yolo) or a hook's allow. A client's text is a question, never a command.

Every request but the card's must carry "Authorization: Bearer <token>": the token in
$XDG_STATE_HOME/mm/serve-token (~/.local/state/mm/serve-token), written at the first
start, or the value of --token-env's variable; --no-token, on loopback only, asks
none. Requests for another Host than the address served, from a web page (an Origin
header) that --allow-origin does not name, or with a body that is not
application/json are refused.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if sf.mcp || sf.mcpHTTP != "" {
				return exitCode(runServeMCP(cmd.Context(), end, s, f, sf, cmd.Flags().Changed))
			}
			return exitCode(runServe(cmd.Context(), end, s, f, sf))
		},
	}
	cmd.Flags().StringVar(&sf.a2a, "a2a", "", "the address to serve A2A on, host:port (port 0: any free one)")
	cmd.Flags().StringVar(&sf.tokenEnv, "token-env", "", "the variable holding the bearer token every request must carry (default: the token in mm's state folder)")
	cmd.Flags().BoolVar(&sf.noToken, "no-token", false, "ask no token of the clients (on loopback only)")
	cmd.Flags().StringArrayVar(&sf.allowOrigins, "allow-origin", nil, "a web origin (https://app.example) whose pages may call the agent; repeat for more")
	cmd.Flags().IntVar(&sf.maxTasks, "max-tasks", a2a.DefaultMaxTasks, "how many tasks may run at once; more are refused with a failed task")
	cmd.Flags().IntVar(&sf.maxConns, "max-connections", a2a.DefaultMaxConns, "how many connections may be open at once; more are answered 503")
	cmd.Flags().BoolVar(&sf.noSave, "no-save", false, "do not save the contexts' sessions (as persist: false)")
	serveMCPFlags(cmd, &sf)
	return cmd
}

// runServe is mm serve --a2a.
func runServe(ctx context.Context, end *ending, s *streams, f *flags, sf serveFlags) int {
	if sf.a2a == "" {
		fmt.Fprintln(s.ErrOut, "mm serve: say where to serve: --a2a 127.0.0.1:8000 (A2A), --mcp (MCP over stdio) or --mcp-http 127.0.0.1:8000 (MCP over HTTP)")
		return 2
	}
	host, token, tokenFile, code := doorOf(s, sf, "--a2a", sf.a2a)
	if code != 0 {
		return code
	}
	cwd, err := s.Getwd()
	if err != nil {
		fmt.Fprintf(s.ErrOut, "mm serve: %v\n", err)
		return 1
	}
	cfg, ok := loadConfig(f, s, cwd)
	if !ok {
		return 1
	}
	if sessionOptions(f, s, cfg, cwd).Running().Model == "" {
		fmt.Fprintf(s.ErrOut, "[config error: %s: model: none given — set model: <provider>/<model> in the file, $MM_MODEL or --model]\n", shownPath(cfg.Path))
		return 1
	}
	ln, err := net.Listen("tcp", sf.a2a)
	if err != nil {
		fmt.Fprintf(s.ErrOut, "mm serve: %v\n", err)
		return 1
	}
	if end != nil {
		end.also(os.Interrupt)
	}
	opts := sessionOptions(f, s, cfg, cwd)
	withWasm(&opts, wasmRuntime(cfg))
	set, problems := checkSkills(cfg, cwd, s.Getenv)
	for _, p := range problems {
		fmt.Fprintf(s.ErrOut, "mm serve: %s\n", p)
	}
	var cardSkills []a2a.Skill
	for _, sk := range set.List() {
		cardSkills = append(cardSkills, a2a.Skill{Name: sk.Name, Description: sk.Description})
	}
	name := agentName(cfg.Path)
	served := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(s.ErrOut, "mm serve: %s over A2A at %s (card: %s.well-known/agent-card.json)\n", name, served, served)
	if tokenFile != "" {
		fmt.Fprintf(s.ErrOut, "mm serve: clients send \"Authorization: Bearer <token>\" with the token in %s\n", tokenFile)
	}
	err = a2a.Serve(ctx, ln, a2a.Options{
		Session: opts, Name: name, Description: cfg.Description, Version: version(), Skills: cardSkills,
		Token: token, MaxTasks: sf.maxTasks, MaxConns: sf.maxConns, Host: host, AllowOrigins: sf.allowOrigins, Log: s.ErrOut,
		Store: servedStore(s.Getenv, !sf.noSave && cfg.Persist, s.ErrOut),
	})
	if err != nil {
		fmt.Fprintf(s.ErrOut, "mm serve: %v\n", err)
		return 1
	}
	return 0
}

// checkOrigins refuses an --allow-origin that is no web origin.
func checkOrigins(s *streams, origins []string) int {
	for _, o := range origins {
		if u, err := url.Parse(o); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" {
			fmt.Fprintf(s.ErrOut, "mm serve: --allow-origin %q: want a web origin, scheme and host, like https://app.example or http://localhost:3000\n", o)
			return 2
		}
	}
	return 0
}

// serveTokenOf is the token mm serve asks of its clients: $VAR's with
// --token-env, none with --no-token (loopback only), else the one in mm's
// state folder, whose path file names; served is the flag and address
// served ("--a2a 0.0.0.0:8000"), for a message. code is not 0 when mm serve cannot
// start, the reason written.
func serveTokenOf(s *streams, sf serveFlags, served, host string) (token, file string, code int) {
	switch {
	case sf.noToken && sf.tokenEnv != "":
		fmt.Fprintln(s.ErrOut, "mm serve: --no-token and --token-env: give one of them")
		return "", "", 2
	case sf.noToken && !loopback(host):
		fmt.Fprintf(s.ErrOut, "mm serve: --no-token: %s is reachable from other machines, which must send a token: leave --no-token out, or serve on 127.0.0.1\n", served)
		return "", "", 2
	case sf.noToken:
		return "", "", 0
	case sf.tokenEnv != "":
		if token = s.Getenv(sf.tokenEnv); token == "" {
			fmt.Fprintf(s.ErrOut, "mm serve: --token-env %s: $%s is empty: set it to the token clients must send\n", sf.tokenEnv, sf.tokenEnv)
			return "", "", 2
		}
		return token, "", 0
	}
	file = serveTokenPath(s.Getenv)
	if file == "" {
		fmt.Fprintln(s.ErrOut, "mm serve: no state folder to keep a token in (set HOME or XDG_STATE_HOME): give --token-env VAR, or --no-token on loopback")
		return "", "", 1
	}
	token, err := serveToken(file)
	if err != nil {
		fmt.Fprintf(s.ErrOut, "mm serve: the token: %v\n", err)
		return "", "", 1
	}
	return token, file, 0
}

// loopback reports whether host is reachable only from this machine.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// agentName is the name the agent card gives: "reviewer" for
// agent.reviewer.yaml or reviewer.yaml, "mm" for agent.yaml or none.
func agentName(path string) string {
	n := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".yaml"), ".yml")
	n = strings.TrimPrefix(n, "agent.")
	if n == "" || n == "agent" || n == "." {
		return "mm"
	}
	return n
}

// shownPath is a configuration's path for a message, or what stands for none.
func shownPath(p string) string {
	if p == "" {
		return "(no configuration file)"
	}
	return p
}

// doorOf checks the flags of a door over HTTP (flag addr: --a2a or
// --mcp-http): the address, the origins, the connections' bound, the
// token. It returns the host, the token and the file it is in, or the exit
// code of a flag that is wrong, said on stderr.
func doorOf(s *streams, sf serveFlags, flag, addr string) (host, token, tokenFile string, code int) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		fmt.Fprintf(s.ErrOut, "mm serve: %s %s: want host:port, like 127.0.0.1:8000 (%v)\n", flag, addr, err)
		return "", "", "", 2
	}
	if code := checkOrigins(s, sf.allowOrigins); code != 0 {
		return "", "", "", code
	}
	if sf.maxConns < 1 {
		fmt.Fprintf(s.ErrOut, "mm serve: --max-connections %d: want a number above 0\n", sf.maxConns)
		return "", "", "", 2
	}
	token, tokenFile, code = serveTokenOf(s, sf, flag+" "+addr, host)
	return host, token, tokenFile, code
}
