package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mm-agent/mm/frontend"
	"github.com/mm-agent/mm/llm"
	"github.com/mm-agent/mm/mmconfigs"
	"github.com/mm-agent/mm/orchestrator"
	"github.com/mm-agent/mm/skills"
)

// checkCmd is mm check: every configuration the flags name, and each one
// it may ask, loaded, its hooks checked, its MCP servers asked for their
// tools, and its agents by command or over ssh started and asked
// initialize.
func checkCmd(f *flags, s *streams) *cobra.Command {
	return &cobra.Command{
		Use:   "check",
		Short: "validate a configuration and every agent it may ask, recursively",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// Any configuration of the walk may have wasm modules to compile
			// or MCP servers to start.
			preferFull(s, f)
			cwd, err := s.Getwd()
			if err != nil {
				return err
			}
			out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
			path := configPath(f, s, cwd)
			if path == "" {
				c := mmconfigs.Default(cwd, s.Getenv)
				set, problems := checkSkills(c, cwd, s.Getenv)
				fmt.Fprintln(out, c.Banner(version(), cwd, set.Banner()))
				for _, problem := range problems {
					fmt.Fprintf(errOut, "  %s\n", problem)
				}
				if len(problems) > 0 {
					return exitCode(1)
				}
				return nil
			}
			mcpOK, hooksOK, skillsOK, agentsOK, schemasOK := true, true, true, true, true
			ok := mmconfigs.Walk(path, cwd, s.Getenv, s.Features.Schemas, func(p string, c *mmconfigs.Config, err error) {
				if err != nil {
					frontend.ReportError(errOut, err)
					return
				}
				set, problems := checkSkills(c, cwd, s.Getenv)
				fmt.Fprintln(out, c.Banner(version(), cwd, set.Banner()))
				for _, problem := range problems {
					fmt.Fprintf(errOut, "  %s: %s\n", p, problem)
					skillsOK = false
				}
				if advice := llm.HandOffAdvice(c.Model); advice != "" && len(c.Agents) > 0 {
					fmt.Fprintf(out, "  %s\n", advice)
				}
				if s.Features.Schemas == nil {
					// mm, when mm-full is not installed: the schemas are
					// read and checked, not compiled.
					for _, sc := range c.Schemas() {
						fmt.Fprintf(errOut, "  %s: %s: not compiled: mm checks JSON Schemas with mm-full, which is not installed: %s\n", p, sc.Where, installFull)
						schemasOK = false
					}
				}
				for _, problem := range checkHooks(cmd.Context(), s.Features, c, cwd, s.Getenv) {
					fmt.Fprintf(errOut, "  %s: %s\n", p, problem)
					hooksOK = false
				}
				for _, st := range orchestrator.ProbeMCP(cmd.Context(), s.Features.MCP, c, cwd, s.Environ()) {
					if st.Err != nil {
						fmt.Fprintf(errOut, "  %v\n", st.Err)
						mcpOK = false
						continue
					}
					fmt.Fprintf(out, "  mcp %s: %d tool(s): %s\n", st.Name, len(st.Tools), strings.Join(st.Tools, ", "))
				}
				for _, st := range orchestrator.ProbeAgents(cmd.Context(), s.Features.A2A, c, cwd, s.Environ()) {
					if st.Err != nil {
						fmt.Fprintf(errOut, "  %v\n", st.Err)
						agentsOK = false
						continue
					}
					who := ""
					if st.Info != "" {
						who = ": " + st.Info
					}
					did := "answered initialize"
					if st.Kind == "a2a" {
						did = "served its agent card"
					}
					fmt.Fprintf(out, "  agent %s (%s): %s%s\n", st.Name, st.Kind, did, who)
				}
			})
			if !ok || !mcpOK || !hooksOK || !skillsOK || !agentsOK || !schemasOK {
				return exitCode(1)
			}
			return nil
		},
	}
}

// checkSkills finds the skills a session of c would offer, with the
// problems a session shows as warnings: a malformed SKILL.md, a skill
// folder without one, two skills of one name, a skills: folder that is not
// there.
func checkSkills(c *mmconfigs.Config, cwd string, getenv func(string) string) (*skills.Set, []string) {
	return skills.Find(skills.Folders(c.Skills, cwd, getenv), func(p string) string { return mmconfigs.DisplayPath(p, cwd) })
}
