package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/internal/strictyaml"
	"github.com/mm-agent/mm/internal/userconfig"
)

// Folder is a folder skills are found in: each of its sub-folders holding a
// SKILL.md is one skill.
type Folder struct {
	// Dir is absolute.
	Dir string
	// Given says the configuration names it (skills:): one that does not
	// exist is then a problem; the usual places may well not exist.
	Given bool
	// Root is the folder its skills must stay in, links followed: the
	// project's root for .mm/skills, the person's mm config folder for
	// theirs; "" is Dir itself.
	Root string
}

// ProjectFolders are the folders of the working directory skills are
// found in, in order: mm's own, then those other agents read (the Agent
// Skills convention's .agents/skills, Claude Code's .claude/skills), so
// that a project's skills written for them are mm's too.
var ProjectFolders = [...]string{".mm/skills", ".agents/skills", ".claude/skills"}

// Folders are the folders skills are found in, first wins: the
// configuration's skills: folders (absolute), the ProjectFolders of the
// working directory, then skills in the person's mm folder
// ($XDG_CONFIG_HOME/mm, ~/.config/mm without it: userconfig.Dir).
// root is the project's root (projectdocs.Root): a link in a project's
// folder may lead anywhere in the project, not out of it.
func Folders(given []string, cwd, root string, getenv func(string) string) []Folder {
	out := make([]Folder, 0, len(given)+len(ProjectFolders)+1)
	for _, d := range given {
		out = append(out, Folder{Dir: d, Given: true})
	}
	for _, d := range ProjectFolders {
		out = append(out, Folder{Dir: filepath.Join(cwd, filepath.FromSlash(d)), Root: root})
	}
	if own := userconfig.Dir(getenv); own != "" {
		out = append(out, Folder{Dir: filepath.Join(own, "skills"), Root: own})
	}
	return out
}

// Set is the skills found, by name.
type Set struct {
	list   []Skill
	byName map[string]int
}

// Len is how many skills there are.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.list)
}

// List returns the skills sorted by name.
func (s *Set) List() []Skill {
	if s == nil {
		return nil
	}
	return append([]Skill(nil), s.list...)
}

// Names returns the skills' names, sorted.
func (s *Set) Names() []string {
	names := make([]string, 0, s.Len())
	for _, sk := range s.List() {
		names = append(names, sk.Name)
	}
	return names
}

// Get returns the skill called name.
func (s *Set) Get(name string) (Skill, bool) {
	if s == nil {
		return Skill{}, false
	}
	i, ok := s.byName[name]
	if !ok {
		return Skill{}, false
	}
	return s.list[i], true
}

// Unknown is the error of a name no skill has, naming those there are.
func (s *Set) Unknown(name string) error {
	if s.Len() == 0 {
		return fmt.Errorf("no skill %q: there are no skills (put one in .mm/skills/<name>/SKILL.md)", name)
	}
	return fmt.Errorf("no skill %q (known: %s)", name, strings.Join(s.Names(), ", "))
}

// Find reads the skills of folders. A skill whose SKILL.md is missing or
// malformed, and a second skill of a name already found, are problems: one
// line each, naming the file (a syntax error's excerpt under its line);
// the other skills are kept. show turns an
// absolute path into the one the lines show.
func Find(folders []Folder, show func(string) string) (*Set, []string) {
	set := &Set{byName: map[string]int{}}
	var problems []string
	for _, f := range folders {
		root := f.Root
		if root == "" {
			root = f.Dir
		}
		if target := regularfile.Outside(root, f.Dir); target != "" {
			problems = append(problems, outsideProblem("skills folder", show(f.Dir), target, root))
			continue
		}
		entries, err := os.ReadDir(f.Dir)
		if err != nil {
			if f.Given || !errors.Is(err, fs.ErrNotExist) {
				problems = append(problems, fmt.Sprintf("skills folder %s: %v", show(f.Dir), regularfile.Cause(err)))
			}
			continue
		}
		for _, e := range entries {
			dir := filepath.Join(f.Dir, e.Name())
			if strings.HasPrefix(e.Name(), ".") || !isDir(e, dir) {
				continue
			}
			if target := regularfile.Outside(root, dir); target != "" {
				problems = append(problems, outsideProblem("skill folder", show(dir), target, root))
				continue
			}
			if target := regularfile.Outside(root, filepath.Join(dir, FileName)); target != "" {
				problems = append(problems, outsideProblem("skill", show(filepath.Join(dir, FileName)), target, root))
				continue
			}
			sk, err := readHead(dir)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				problems = append(problems, fmt.Sprintf("skill folder %s has no %s: not a skill (add one, or move the folder out of %s)", show(dir), FileName, show(f.Dir)))
				continue
			case err != nil:
				// At its line, in a compiler's place: "skill a/SKILL.md:3: …",
				// a syntax error's excerpt under it.
				problems = append(problems, "skill "+strictyaml.Report(show(filepath.Join(dir, FileName)), err))
				continue
			}
			if i, dup := set.byName[sk.Name]; dup {
				if !regularfile.Same(set.list[i].File, sk.File) { // one skill linked into two folders is one
					problems = append(problems, fmt.Sprintf("skill %s: %s and %s both name it; keeping the first", sk.Name, show(set.list[i].File), show(sk.File)))
				}
				continue
			}
			set.byName[sk.Name] = len(set.list)
			set.list = append(set.list, sk)
		}
	}
	sort.Slice(set.list, func(i, j int) bool { return set.list[i].Name < set.list[j].Name })
	for i, sk := range set.list {
		set.byName[sk.Name] = i
	}
	return set, problems
}

// outsideProblem is the line of a skills folder, skill folder or SKILL.md
// whose link leads out of the folder it must stay in: it is skipped.
func outsideProblem(what, name, target, root string) string {
	return fmt.Sprintf("%s %s: a link to %s, outside %s: skipped (a skill stays in its project or config folder)", what, name, target, root)
}

// isDir reports whether e is a folder, following a symbolic link.
func isDir(e fs.DirEntry, path string) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// Banner is the banner's part: "skills: 3", or "" without skills.
func (s *Set) Banner() string {
	if s.Len() == 0 {
		return ""
	}
	return fmt.Sprintf("skills: %d", s.Len())
}
