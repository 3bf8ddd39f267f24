package regularfile

import (
	"path/filepath"
	"strings"
)

// Outside returns where path leads, its symbolic links followed, when that
// is not inside root (its own links followed too): a file a project names
// must stay in the project, whatever its links say. It returns "" when path
// is inside root, and when either cannot be resolved (a missing path is
// its reader's to report).
func Outside(root, path string) string {
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return ""
	}
	p, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	if p == r || strings.HasPrefix(p, r+string(filepath.Separator)) || r == string(filepath.Separator) {
		return ""
	}
	return p
}
