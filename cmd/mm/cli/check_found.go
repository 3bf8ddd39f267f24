package cli

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/skills"
	"github.com/mm-agent/mm/internal/userconfig"
)

// printSkills lists, under a configuration's banner in mm check, each
// skill a session of it finds and the folder it came from:
// "  skill pdf: .claude/skills/pdf".
func printSkills(out io.Writer, set *skills.Set, cwd string, getenv func(string) string) {
	for _, sk := range set.List() {
		fmt.Fprintf(out, "  skill %s: %s\n", sk.Name, frontend.VisibleLine(checkPath(sk.Dir, cwd, getenv)))
	}
}

// checkPath is a path as mm check names it: in the person's own mm folder
// as they write it (~/.config/mm/skills/haiku), else relative to cwd when
// that is shorter.
func checkPath(p, cwd string, getenv func(string) string) string {
	if own := userconfig.Dir(getenv); own != "" {
		if rel, err := filepath.Rel(own, p); err == nil && filepath.IsLocal(rel) {
			return userconfig.Show(p, getenv)
		}
	}
	return mmconfigs.DisplayPath(p, cwd)
}
