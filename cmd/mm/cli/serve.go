package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
)

// serveFlags are mm serve's own flags.
type serveFlags struct {
	a2a      string
	tokenEnv string
	maxTasks int
	noSave   bool
}

// serveCmd is mm serve: the configuration as a service.
func serveCmd(f *flags, s *streams, end *ending) *cobra.Command {
	var sf serveFlags
	cmd := &cobra.Command{
		Use:   "serve --a2a ADDR",
		Short: "serve the configuration as an agent over A2A (Agent2Agent protocol) until SIGTERM or Ctrl-C",
		Long: `Serves the configuration as an A2A agent at ADDR (host:port): its card at
/.well-known/agent-card.json, JSON-RPC with streaming at /. Each A2A context is one
mm session, saved in the sessions folder's served/ folder (not with --no-save or
persist: false). Nobody can be asked for consent: tool calls run only with yolo: true
(or --yolo) or a hook's allow. Away from loopback, --token-env is required: every
request must carry "Authorization: Bearer <the variable's value>".`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if s.Features.ServeA2A == nil {
				return errors.New("mm serve: this build of mm has no A2A server (cmd/mm plugs it in)")
			}
			return exitCode(runServe(cmd.Context(), end, s, f, sf))
		},
	}
	cmd.Flags().StringVar(&sf.a2a, "a2a", "", "the address to serve A2A on, host:port (port 0: any free one)")
	cmd.Flags().StringVar(&sf.tokenEnv, "token-env", "", "the variable holding the bearer token every request must carry (required away from loopback)")
	cmd.Flags().IntVar(&sf.maxTasks, "max-tasks", defaultMaxTasks, "how many tasks may run at once; more are refused with a failed task")
	cmd.Flags().BoolVar(&sf.noSave, "no-save", false, "do not save the contexts' sessions (as persist: false)")
	return cmd
}

// runServe is mm serve --a2a.
func runServe(ctx context.Context, end *ending, s *streams, f *flags, sf serveFlags) int {
	if sf.a2a == "" {
		fmt.Fprintln(s.ErrOut, "mm serve: give the address to serve on: mm serve --a2a 127.0.0.1:8000")
		return 2
	}
	host, _, err := net.SplitHostPort(sf.a2a)
	if err != nil {
		fmt.Fprintf(s.ErrOut, "mm serve: --a2a %s: want host:port, like 127.0.0.1:8000 (%v)\n", sf.a2a, err)
		return 2
	}
	token := ""
	if sf.tokenEnv != "" {
		if token = s.Getenv(sf.tokenEnv); token == "" {
			fmt.Fprintf(s.ErrOut, "mm serve: --token-env %s: $%s is empty: set it to the token clients must send\n", sf.tokenEnv, sf.tokenEnv)
			return 2
		}
	} else if !loopback(host) {
		fmt.Fprintf(s.ErrOut, "mm serve: --a2a %s is reachable from other machines: give --token-env VAR, the variable holding the token every request must carry (or serve on 127.0.0.1)\n", sf.a2a)
		return 2
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
	if cfg.Model == "" && f.model == "" {
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
	withWasm(&opts, wasmRuntime(s.Features, cfg))
	set, problems := checkSkills(cfg, cwd, s.Getenv)
	for _, p := range problems {
		fmt.Fprintf(s.ErrOut, "mm serve: %s\n", p)
	}
	var cardSkills []ServeSkill
	for _, sk := range set.List() {
		cardSkills = append(cardSkills, ServeSkill{Name: sk.Name, Description: sk.Description})
	}
	name := agentName(cfg.Path)
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(s.ErrOut, "mm serve: %s over A2A at %s (card: %s.well-known/agent-card.json)\n", name, url, url)
	err = s.Features.ServeA2A(ctx, ln, ServeOptions{
		Session: opts, Name: name, Description: cfg.Description, Version: version(), Skills: cardSkills,
		Token: token, MaxTasks: sf.maxTasks, Log: s.ErrOut,
		Store: servedStore(s.Getenv, !sf.noSave && cfg.Persist, s.ErrOut),
	})
	if err != nil {
		fmt.Fprintf(s.ErrOut, "mm serve: %v\n", err)
		return 1
	}
	return 0
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
