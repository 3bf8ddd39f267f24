package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/hooks"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// hooksCmd is mm hooks run <event>: a hook author's test bench.
func hooksCmd(f *flags, s *streams) *cobra.Command {
	var tool, agent string
	run := &cobra.Command{
		Use:   "run <event>",
		Short: "run an event's hook chain from the configuration on an Input JSON read from stdin",
		Long: `Reads a hook Input JSON object on stdin, runs the chain of <event> from the
current configuration exactly as a turn would, prints each run's display line, then
the resulting decision as JSON. --tool or --agent names the matcher's subject.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHooks(cmd, f, s, args[0], subject{tool: tool, agent: agent})
		},
	}
	run.Flags().StringVar(&tool, "tool", "", "the tool name the matchers see (preToolCall, postToolCall)")
	run.Flags().StringVar(&agent, "agent", "", "the asked agent's name the matchers see (preAsk, postAsk)")
	group := &cobra.Command{Use: "hooks", Short: "tools for hook authors"}
	group.AddCommand(run)
	return group
}

// subject is what --tool and --agent name for the matchers; the agent when
// both are given.
type subject struct{ tool, agent string }

func (s subject) String() string {
	if s.agent != "" {
		return s.agent
	}
	return s.tool
}

// runHooks is mm hooks run <event>: the chain of event, from the
// configuration, on the Input JSON of stdin, in the hook engine a session
// of this configuration and these flags runs.
func runHooks(cmd *cobra.Command, f *flags, s *streams, event string, matched subject) error {
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	ev, err := hooks.ParseEvent(event)
	if err != nil {
		fmt.Fprintf(errOut, "mm hooks run: %v\n", err)
		return exitCode(2)
	}
	cwd, err := s.Getwd()
	if err != nil {
		return err
	}
	cfg, ok := loadConfig(f, s, cwd)
	if !ok {
		return exitCode(1)
	}
	data, err := io.ReadAll(cmd.InOrStdin())
	if err != nil {
		return fmt.Errorf("read the input from stdin: %w", err)
	}
	var in hooks.Input
	if len(data) > 0 {
		if err := json.Unmarshal(data, &in); err != nil {
			fmt.Fprintf(errOut, "mm hooks run: stdin is not a hook Input JSON object: %v\n", err)
			return exitCode(2)
		}
	}
	opts := sessionOptions(f, s, cfg, cwd)
	// Only the hooks run: no model is called, no MCP server started.
	opts.NoModel = true
	withWasm(&opts, wasmRuntime(cfg))
	session, err := orchestrator.New(cmd.Context(), opts)
	if err != nil {
		frontend.ReportError(errOut, err)
		return exitCode(1)
	}
	defer session.Close()
	n := 0
	res, err := session.HookEngine().Simulate(cmd.Context(), ev, in, matched.String(), func(r hooks.Run) {
		n++
		fmt.Fprintln(out, r.Line(n))
		if rep := r.Report(); rep != "" {
			fmt.Fprintln(errOut, rep)
		}
	})
	if err != nil {
		fmt.Fprintf(errOut, "mm hooks run: %v\n", err)
		return exitCode(2)
	}
	if n == 0 {
		fmt.Fprintf(errOut, "(no %s hook of %s matches)\n", ev, filepath.Base(cfg.Path))
	}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	return enc.Encode(res)
}
