package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mm-agent/mm/hooks"
)

// hooksCmd is mm hooks run <event>: a hook author's test bench.
func hooksCmd(f *flags) *cobra.Command {
	var tool, agent string
	run := &cobra.Command{
		Use:   "run <event>",
		Short: "run an event's hook chain from the configuration on an Input JSON read from stdin",
		Long: `Reads a hook Input JSON object on stdin, runs the chain of <event> from the
current configuration exactly as a turn would, prints each run's display line, then
the resulting decision as JSON. --tool or --agent names the matcher's subject.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ev, err := hooks.ParseEvent(args[0])
			if err != nil {
				fmt.Fprintf(os.Stderr, "mm hooks run: %v\n", err)
				return exitCode(2)
			}
			cwd, err := os.Getwd()
			if err != nil {
				return err
			}
			cfg, ok := loadConfig(f, cwd)
			if !ok {
				return exitCode(1)
			}
			data, err := io.ReadAll(os.Stdin)
			if err != nil {
				return fmt.Errorf("read the input from stdin: %w", err)
			}
			var in hooks.Input
			if len(data) > 0 {
				if err := json.Unmarshal(data, &in); err != nil {
					fmt.Fprintf(os.Stderr, "mm hooks run: stdin is not a hook Input JSON object: %v\n", err)
					return exitCode(2)
				}
			}
			model := cfg.Model
			if f.model != "" {
				model = f.model
			}
			environ := os.Environ()
			if exe, err := os.Executable(); err == nil {
				environ = append(environ, "MM_BIN="+exe)
			}
			if cfg.Abs != "" {
				environ = append(environ, "MM_CONFIG="+cfg.Abs)
			}
			eng := hooks.NewEngine(&cfg.Hooks, hooks.Options{Cwd: cwd, Model: model, Environ: environ, Wasm: wasmRunner(cfg)})
			subject := tool
			if agent != "" {
				subject = agent
			}
			n := 0
			res, err := eng.Simulate(cmd.Context(), ev, in, subject, func(r hooks.Run) {
				n++
				fmt.Println(r.Line(n))
				if rep := r.Report(); rep != "" {
					fmt.Fprintln(os.Stderr, rep)
				}
			})
			if err != nil {
				fmt.Fprintf(os.Stderr, "mm hooks run: %v\n", err)
				return exitCode(2)
			}
			if n == 0 {
				fmt.Fprintf(os.Stderr, "(no %s hook of %s matches)\n", ev, filepath.Base(cfg.Path))
			}
			enc := json.NewEncoder(os.Stdout)
			enc.SetEscapeHTML(false)
			return enc.Encode(res)
		},
	}
	run.Flags().StringVar(&tool, "tool", "", "the tool name the matchers see (preToolCall, postToolCall)")
	run.Flags().StringVar(&agent, "agent", "", "the asked agent's name the matchers see (preAsk, postAsk)")
	group := &cobra.Command{Use: "hooks", Short: "tools for hook authors"}
	group.AddCommand(run)
	return group
}
