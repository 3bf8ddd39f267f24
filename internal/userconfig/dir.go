package userconfig

import (
	"path/filepath"
	"strings"
)

// Dir is the person's mm folder: $XDG_CONFIG_HOME/mm, else ~/.config/mm
// when XDG_CONFIG_HOME is unset or not absolute (the XDG base directory
// specification ignores a relative value); "" when HOME is not absolute
// either: there is no such folder.
func Dir(getenv func(string) string) string {
	if config := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(config) {
		return filepath.Join(config, "mm")
	}
	if home := getenv("HOME"); filepath.IsAbs(home) {
		return filepath.Join(home, ".config", "mm")
	}
	return ""
}

// Show is path as a person writes it: "~/.config/mm/agent.yaml" for a path
// under $HOME, path itself otherwise. What is shown of the person's own
// files is then the same in every folder they work in, and names no
// absolute path a system prompt would differ by between machines.
func Show(path string, getenv func(string) string) string {
	home := getenv("HOME")
	if !filepath.IsAbs(home) || !filepath.IsAbs(path) {
		return path
	}
	rel, err := filepath.Rel(home, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	if rel == "." {
		return "~"
	}
	return "~/" + filepath.ToSlash(rel)
}
