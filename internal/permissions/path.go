package permissions

import (
	"path/filepath"
	"strings"
)

// coversPath reports whether the path pattern of r covers the file p
// (absolute): the pattern made absolute (in at.Cwd, ~/ in at.Home), then
// compared element by element, where ** stands for any elements, none
// included, and * inside an element for any characters but /.
func (r Rule) coversPath(p string, at Places) bool {
	pat := r.Pattern
	switch {
	case pat == "~" || strings.HasPrefix(pat, "~/"):
		if at.Home == "" {
			return false
		}
		pat = filepath.Join(at.Home, pat[1:])
	case !filepath.IsAbs(pat):
		pat = filepath.Join(at.Cwd, pat)
	}
	pe, fe := elements(filepath.ToSlash(pat)), elements(filepath.ToSlash(p))
	return wildcard(len(pe), len(fe),
		func(i int) bool { return pe[i] == "**" },
		func(i, j int) bool { return glob(pe[i], fe[j]) })
}

// elements are the elements of a slash-separated path, cleaned.
func elements(p string) []string {
	return strings.FieldsFunc(filepath.ToSlash(filepath.Clean(p)), func(r rune) bool { return r == '/' })
}

// filePaths are the names a file tool's file goes by: as the call names
// it, and as its links lead (the folders that exist resolved, the rest as
// named). A link in the project does not take an allow of the project
// outside it, nor a write outside past a deny.
func filePaths(p string) []string {
	if p == "" {
		return nil
	}
	p = filepath.Clean(p)
	resolved := resolve(p)
	if resolved == p {
		return []string{p}
	}
	return []string{p, resolved}
}

// resolve is p with its links resolved as far as the file system has it:
// the longest part of p that exists resolved, the rest joined to it.
func resolve(p string) string {
	rest := ""
	for dir := p; ; {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return p
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}
