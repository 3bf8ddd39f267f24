package mmconfigs

import (
	"os"
	"path/filepath"

	"github.com/mm-agent/mm/internal/userconfig"
)

// UserFileName is the person's own configuration in their mm folder
// (userconfig.Dir): what mm runs with in a folder without agent.yaml.
const UserFileName = "agent.yaml"

// UserFile is the person's own configuration file, absolute, when it
// exists; "" otherwise.
func UserFile(getenv func(string) string) string {
	dir := userconfig.Dir(getenv)
	if dir == "" || !isFile(filepath.Join(dir, UserFileName)) {
		return ""
	}
	return filepath.Join(dir, UserFileName)
}

// inUserDir reports whether abs is in the person's own mm folder: their
// agent.yaml, or a file it names beside it (agent.expert.yaml).
func inUserDir(abs string, getenv func(string) string) bool {
	dir := userconfig.Dir(getenv)
	return dir != "" && filepath.Dir(abs) == dir
}

// isFile reports whether path is there and is not a folder.
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// Shown is the file as the banner and the messages name it: one of the
// person's own as ~/.config/mm/agent.yaml (Path), another relative to cwd
// when that is shorter.
func (c *Config) Shown(cwd string) string {
	if c.User {
		return c.Path
	}
	return DisplayPath(c.Abs, cwd)
}

// ShowPath is a path as mm's lines name it: in the person's own mm folder
// as they write it (~/.config/mm/commands/review.md), else relative to cwd
// when that is shorter (DisplayPath).
func ShowPath(p, cwd string, getenv func(string) string) string {
	if own := userconfig.Dir(getenv); own != "" {
		if rel, err := filepath.Rel(own, p); err == nil && filepath.IsLocal(rel) {
			return userconfig.Show(p, getenv)
		}
	}
	return DisplayPath(p, cwd)
}
