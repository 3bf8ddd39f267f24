package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds the symbolic links followed while resolving one path, as
// the kernel's ELOOP does.
const maxLinks = 40

// resolve is where a write to path lands: path absolute, every symbolic link
// followed — the final one too, even when its target does not exist yet,
// for a write creates the target — and ".." taken after the link before it.
// The part that does not exist yet holds no link, so it is joined as
// written.
func resolve(path string) (string, error) {
	return resolveLinks(path, 0)
}

func resolveLinks(path string, links int) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("%s is not absolute", path)
	}
	for {
		if real, err := filepath.EvalSymlinks(path); err == nil {
			return real, nil
		}
		fi, err := os.Lstat(path)
		switch {
		case err == nil && fi.Mode()&fs.ModeSymlink != 0:
			if links++; links > maxLinks {
				return "", fmt.Errorf("%s: too many levels of symbolic links", path)
			}
			target, err := os.Readlink(path)
			if err != nil {
				return "", err
			}
			if !filepath.IsAbs(target) {
				target = parent(path) + string(filepath.Separator) + target
			}
			path = target
			continue
		case err == nil:
			// It exists and is no link, yet does not resolve: a folder on
			// the way cannot be searched.
			return "", fmt.Errorf("%s cannot be resolved", path)
		case !errors.Is(err, fs.ErrNotExist):
			return "", err
		}
		dir, base := parent(path), path[len(parent(path)):]
		base = strings.TrimLeft(base, string(filepath.Separator))
		if dir == path {
			return path, nil
		}
		real, err := resolveLinks(dir, links)
		if err != nil {
			return "", err
		}
		return filepath.Join(real, base), nil
	}
}

// parent is path without its last element, not cleaned: "a/link/.." keeps
// its ".." for the link to be followed first.
func parent(path string) string {
	trimmed := strings.TrimRight(path, string(filepath.Separator))
	i := strings.LastIndexByte(trimmed, filepath.Separator)
	if i <= 0 {
		return string(filepath.Separator)
	}
	return trimmed[:i]
}

// within says whether path is root or under it; both resolved.
func within(path, root string) bool {
	if path == root || root == string(filepath.Separator) {
		return true
	}
	return strings.HasPrefix(path, root+string(filepath.Separator))
}
