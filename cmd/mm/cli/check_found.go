package cli

import (
	"fmt"
	"io"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/skills"
)

// printSkills lists, under a configuration's banner in mm check, each
// skill a session of it finds and the folder it came from:
// "  skill pdf: .claude/skills/pdf".
func printSkills(out io.Writer, set *skills.Set, cwd string, getenv func(string) string) {
	for _, sk := range set.List() {
		fmt.Fprintf(out, "  skill %s: %s\n", sk.Name, frontend.VisibleLine(mmconfigs.ShowPath(sk.Dir, cwd, getenv)))
	}
}

// checkCommands lists, under the first banner of mm check, each command
// file a session in cwd offers and where it came from
// ("  command /review: .mm/commands/review.md"), and on errOut its
// problems: a file mm's own command shadows, a malformed front matter. It
// reports whether there were none.
func checkCommands(out, errOut io.Writer, cwd string, getenv func(string) string) bool {
	set, problems := orchestrator.CommandFiles(cwd, getenv)
	for _, c := range set.List() {
		fmt.Fprintf(out, "  command /%s: %s\n", c.Name, frontend.VisibleLine(mmconfigs.ShowPath(c.File, cwd, getenv)))
	}
	for _, p := range problems {
		fmt.Fprintf(errOut, "  %s\n", frontend.Visible(p))
	}
	return len(problems) == 0
}
