package commandfiles

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

// ProjectFolder is where a project keeps its commands, in the working
// directory.
const ProjectFolder = ".mm/commands"

// Folder is a folder command files are found in: each <name>.md in it is
// /<name>.
type Folder struct {
	// Dir is absolute.
	Dir string
	// Root is the folder its files must stay in, links followed: the
	// project's root for .mm/commands, the person's mm folder for theirs.
	Root string
}

// Folders are the folders command files are found in, first wins:
// ProjectFolder of the working directory, then commands in the person's
// mm folder (userconfig.Dir). root is the project's root
// (projectdocs.Root): a link in the project's folder may lead anywhere in
// the project, not out of it.
func Folders(cwd, root string, getenv func(string) string) []Folder {
	out := []Folder{{Dir: filepath.Join(cwd, filepath.FromSlash(ProjectFolder)), Root: root}}
	if own := userconfig.Dir(getenv); own != "" {
		out = append(out, Folder{Dir: filepath.Join(own, "commands"), Root: own})
	}
	return out
}

// Set is the commands found, by name.
type Set struct {
	list   []Command
	byName map[string]int
}

// List returns the commands sorted by name.
func (s *Set) List() []Command {
	if s == nil {
		return nil
	}
	return append([]Command(nil), s.list...)
}

// Get returns the command called name.
func (s *Set) Get(name string) (Command, bool) {
	if s == nil {
		return Command{}, false
	}
	i, ok := s.byName[name]
	if !ok {
		return Command{}, false
	}
	return s.list[i], true
}

// Find reads the command files of folders: each <name>.md, hidden files
// and folders aside. A file whose name cannot be a command's, one that a
// command of mm's own shadows (builtin says which names are mm's, with
// the words that say so), a malformed front matter, a second command of a
// name already found and a link leading out of its Root are problems: one
// line each, naming the file (a syntax error's excerpt under its line);
// the other commands are kept. show turns an absolute path into the one
// the lines show.
func Find(folders []Folder, builtin func(name string) (string, bool), show func(string) string) (*Set, []string) {
	set := &Set{byName: map[string]int{}}
	var problems []string
	for _, f := range folders {
		if target := regularfile.Outside(f.Root, f.Dir); target != "" {
			problems = append(problems, outsideProblem("commands folder", show(f.Dir), target, f.Root))
			continue
		}
		entries, err := os.ReadDir(f.Dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				problems = append(problems, fmt.Sprintf("commands folder %s: %v", show(f.Dir), regularfile.Cause(err)))
			}
			continue
		}
		for _, e := range entries {
			name, isCommand := strings.CutSuffix(e.Name(), Ext)
			if !isCommand || strings.HasPrefix(e.Name(), ".") || e.IsDir() {
				continue
			}
			if problem := set.add(f, name, builtin, show); problem != "" {
				problems = append(problems, problem)
			}
		}
	}
	sort.Slice(set.list, func(i, j int) bool { return set.list[i].Name < set.list[j].Name })
	for i, c := range set.list {
		set.byName[c.Name] = i
	}
	return set, problems
}

// add reads the command file name+Ext of f into s, or says why not.
func (s *Set) add(f Folder, name string, builtin func(string) (string, bool), show func(string) string) string {
	path := filepath.Join(f.Dir, name+Ext)
	if target := regularfile.Outside(f.Root, path); target != "" {
		return outsideProblem("command file", show(path), target, f.Root)
	}
	if !ValidName(name) {
		return fmt.Sprintf("command file %s: /%s cannot be typed as a command: name it with letters, digits and hyphens (at most %d)", show(path), name, MaxNameLen)
	}
	if why, mine := builtin(name); mine {
		return fmt.Sprintf("command /%s (%s): %s, which runs instead: rename the file", name, show(path), why)
	}
	c, err := readHead(name, path)
	if err != nil {
		// At its line, in a compiler's place: "command a.md:3: …".
		return "command " + strictyaml.Report(show(path), err)
	}
	if i, dup := s.byName[name]; dup {
		if !regularfile.Same(s.list[i].File, path) {
			return fmt.Sprintf("command /%s: %s and %s both name it; keeping the first", name, show(s.list[i].File), show(path))
		}
		return ""
	}
	s.byName[name] = len(s.list)
	s.list = append(s.list, c)
	return ""
}

// outsideProblem is the line of a commands folder or command file whose
// link leads out of the folder it must stay in: it is skipped.
func outsideProblem(what, name, target, root string) string {
	return fmt.Sprintf("%s %s: a link to %s, outside %s: skipped (a command stays in its project or config folder)", what, name, target, root)
}
