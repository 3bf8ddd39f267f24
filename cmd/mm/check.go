package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mm-agent/mm/frontend"
	"github.com/mm-agent/mm/mmconfigs"
	"github.com/mm-agent/mm/orchestrator"
)

func checkCmd(f *flags) *cobra.Command {
	return &cobra.Command{
		Use:   "check",
		Short: "validate a configuration and every agent it may ask, recursively",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cwd, err := os.Getwd()
			if err != nil {
				return err
			}
			path := mmconfigs.Find(f.config, os.Getenv("MM_CONFIG"), cwd)
			if path == "" {
				fmt.Println(mmconfigs.Default(cwd, os.Getenv).Banner(version(), cwd))
				return nil
			}
			mcpOK, hooksOK := true, true
			ok := mmconfigs.Walk(path, cwd, os.Getenv, func(p string, c *mmconfigs.Config, err error) {
				if err != nil {
					frontend.ReportError(os.Stderr, err)
					return
				}
				fmt.Println(c.Banner(version(), cwd))
				for _, problem := range checkHooks(cmd.Context(), c, cwd, os.Getenv) {
					fmt.Fprintf(os.Stderr, "  %s: %s\n", p, problem)
					hooksOK = false
				}
				for _, st := range orchestrator.ProbeMCP(cmd.Context(), c, cwd, os.Environ()) {
					if st.Err != nil {
						fmt.Fprintf(os.Stderr, "  %v\n", st.Err)
						mcpOK = false
						continue
					}
					fmt.Printf("  mcp %s: %d tool(s): %s\n", st.Name, len(st.Tools), strings.Join(st.Tools, ", "))
				}
			})
			if !ok || !mcpOK || !hooksOK {
				return exitCode(1)
			}
			return nil
		},
	}
}
