package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/mmconfigs/schemacheck"
	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/projectdocs"
	"github.com/mm-agent/mm/internal/skills"
	"github.com/mm-agent/mm/internal/tools/mcptools"
)

// checkCmd is mm check: every configuration the flags name, and each one
// it may ask, loaded, its hooks checked, its MCP servers asked for their
// tools, and its agents by command or over ssh started and asked
// initialize.
func checkCmd(f *flags, s *streams) *cobra.Command {
	var strict bool
	cmd := &cobra.Command{
		Use:   "check",
		Short: "validate a configuration and every agent it may ask, recursively",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cwd, err := s.Getwd()
			if err != nil {
				return err
			}
			out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
			path := configPath(f, s, cwd)
			if path == "" {
				c := mmconfigs.Default(cwd, s.Getenv)
				set, problems := checkSkills(c, cwd, s.Getenv)
				o := sessionOptions(f, s, c, cwd)
				fmt.Fprintln(out, bannerLine(c, cwd, o.Running(), set.Banner()))
				printSkills(out, set, cwd, s.Getenv)
				for _, problem := range problems {
					fmt.Fprintf(errOut, "  %s\n", frontend.Visible(problem))
				}
				modelOK := checkModel(cmd.Context(), o, s.Getenv, "(no configuration file)", errOut, strict)
				if !checkCommands(out, errOut, cwd, s.Getenv) || !modelOK || len(problems) > 0 {
					return exitCode(1)
				}
				return nil
			}
			mcpOK, hooksOK, skillsOK, agentsOK, modelOK, commandsOK := true, true, true, true, true, true
			root := true
			var ceiling []string
			bin, _ := os.Executable()
			ok := mmconfigs.Walk(path, cwd, s.Getenv, schemacheck.Compile, func(p string, c *mmconfigs.Config, err error) {
				// The flags' configuration runs with them (--model,
				// --yolo, --sandbox, --network); an agent it asks by file
				// is started with none, under the sandbox it hands down.
				o := orchestrator.Options{Config: c, Cwd: cwd, Environ: append(s.Environ(), ceiling...)}
				first := root
				if root {
					o, root = sessionOptions(f, s, c, cwd), false
					if c := o.SandboxCeiling(); c != "" {
						ceiling = []string{"MM_SANDBOX_CEILING=" + c}
					}
				}
				if err != nil {
					frontend.ReportError(errOut, err)
					return
				}
				set, problems := checkSkills(c, cwd, s.Getenv)
				fmt.Fprintln(out, bannerLine(c, cwd, o.Running(), set.Banner()))
				if line := o.SandboxTightened(); line != "" {
					fmt.Fprintf(out, "  %s\n", line)
				}
				printSkills(out, set, cwd, s.Getenv)
				for _, problem := range problems {
					fmt.Fprintf(errOut, "  %s: %s\n", p, frontend.Visible(problem))
					skillsOK = false
				}
				if first { // the person's commands are the folder's, not an agent's
					commandsOK = checkCommands(out, errOut, cwd, s.Getenv)
				}
				modelOK = checkModel(cmd.Context(), o, s.Getenv, p, errOut, strict) && modelOK
				if advice := orchestrator.HandOffAdvice(cmd.Context(), o, s.Getenv); advice != "" {
					fmt.Fprintf(out, "  %s\n", frontend.VisibleLine(advice))
				}
				for _, problem := range checkHooks(cmd.Context(), c, cwd, s.Getenv) {
					fmt.Fprintf(errOut, "  %s: %s\n", p, frontend.Visible(problem))
					hooksOK = false
				}
				for _, st := range orchestrator.ProbeMCP(cmd.Context(), mcptools.Start, c, cwd, s.Environ()) {
					if st.Err != nil {
						fmt.Fprintf(errOut, "  %s\n", frontend.Visible(st.Err.Error()))
						mcpOK = false
						continue
					}
					fmt.Fprintf(out, "  mcp %s: %d tool(s): %s\n", st.Name, len(st.Tools), frontend.VisibleLine(strings.Join(st.Tools, ", ")))
				}
				for _, st := range orchestrator.ProbeAgents(cmd.Context(), connectA2A, c, cwd, s.Environ()) {
					if st.Err != nil {
						// An agent's words (its stderr) may be in it.
						fmt.Fprintf(errOut, "  %s\n", frontend.Visible(st.Err.Error()))
						agentsOK = false
						continue
					}
					who := ""
					if st.Info != "" {
						// The agent's own name and version (ACP agentInfo,
						// an A2A card): one line, made visible.
						who = ": " + frontend.VisibleLine(st.Info)
					}
					did := "answered initialize"
					if st.Kind == "a2a" {
						did = "served its agent card"
					}
					if o.OutsideSandbox(c.Agents[st.Name], bin) {
						who += "; it runs outside mm's sandbox"
					}
					fmt.Fprintf(out, "  agent %s (%s): %s%s\n", st.Name, st.Kind, did, who)
				}
			})
			if !ok || !mcpOK || !hooksOK || !skillsOK || !agentsOK || !modelOK || !commandsOK {
				return exitCode(1)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&strict, "strict", false, "exit 1 when a model's server does not answer or lacks the model, as for an error")
	return cmd
}

// checkSkills finds the skills a session of c would offer, with the
// problems a session shows as warnings: a malformed SKILL.md, a skill
// folder without one, two skills of one name, a skills: folder that is not
// there.
func checkSkills(c *mmconfigs.Config, cwd string, getenv func(string) string) (*skills.Set, []string) {
	return skills.Find(skills.Folders(c.Skills, cwd, projectdocs.Root(cwd), getenv), func(p string) string { return mmconfigs.DisplayPath(p, cwd) })
}

// checkModel says what mm check finds of the model a session of o runs,
// the configuration at p: false for the error the session would start
// with (no model, an unknown provider), and for a server that does not
// answer or lacks the model under --strict (a warning otherwise: the
// server may be started later).
func checkModel(ctx context.Context, o orchestrator.Options, getenv func(string) string, p string, errOut io.Writer, strict bool) bool {
	warning, err := orchestrator.CheckModel(ctx, o, getenv)
	switch {
	case err != nil:
		frontend.ReportError(errOut, err)
		return false
	case warning != "":
		fmt.Fprintf(errOut, "  %s: warning: %s\n", p, frontend.VisibleLine(warning)) // a server's words may be in it
		return !strict
	}
	return true
}
