package projectdocs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/internal/textcut"
	"github.com/mm-agent/mm/internal/userconfig"
)

// FileName is the file read in each folder: the cross-tool convention.
const FileName = "AGENTS.md"

// FileNames are the files a folder's instructions may be in, the first
// that is there read alone: AGENTS.md, else the files Claude Code and
// Gemini CLI read, so that a project written for them is read as they
// read it.
var FileNames = []string{FileName, "CLAUDE.md", "GEMINI.md"}

// MaxBytes bounds all the AGENTS.md files of a session together: 32 KiB,
// some 8,000 tokens, as Codex bounds them. It keeps the system prompt well
// inside a local model's context; instructions longer than that belong in
// files the model reads when it needs them.
const MaxBytes = 32 << 10

// Doc is one AGENTS.md as the system prompt holds it.
type Doc struct {
	// Name is the file relative to the project's root, with slashes:
	// "AGENTS.md", "cmd/mm/AGENTS.md".
	Name string
	// Text is its content, cut when the bound was reached.
	Text string
	// Cut is how many bytes of the file were left out (0: none).
	Cut int64
	// Size is the file's size.
	Size int64
}

// Root is the project's root for cwd (absolute): the nearest folder at or
// above it that holds .git (a folder, or a file in a worktree), else cwd
// itself.
func Root(cwd string) string {
	for dir := cwd; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return cwd
		}
		dir = up
	}
}

// Read reads the person's own AGENTS.md (in their mm folder, as getenv
// says where it is: userconfig.Dir), then the instructions files from the
// root of cwd's project down to cwd, the root's first: in each folder the
// first of FileNames that is there. The nearest files are kept first when
// the bound is reached: a file that does not fit is cut, and those farther
// up are left out (Doc.Cut says so); the person's own is the farthest. A
// file that cannot be read (a named pipe, no permission) is a problem, one
// line naming it; the others are still read.
func Read(cwd string, getenv func(string) string) ([]Doc, []string) {
	root := Root(cwd)
	var files []place // nearest first
	for dir := cwd; ; dir = filepath.Dir(dir) {
		prefix := ""
		if rel, err := filepath.Rel(root, dir); err == nil && rel != "." {
			prefix = filepath.ToSlash(rel) + "/"
		}
		if name, ok := present(dir); ok {
			files = append(files, place{path: filepath.Join(dir, name), name: prefix + name, root: root, inside: "the project"})
		}
		if dir == root || filepath.Dir(dir) == dir {
			break
		}
	}
	if own := userconfig.Dir(getenv); own != "" {
		path := filepath.Join(own, FileName)
		files = append(files, place{path: path, name: userconfig.Show(path, getenv), root: own, inside: "your mm folder"})
	}
	var docs []Doc
	var problems []string
	left := int64(MaxBytes)
	for _, f := range files {
		if target := regularfile.Outside(f.root, f.path); target != "" {
			// A cloned project's AGENTS.md -> ../../.ssh/id_rsa must not
			// put the key in the system prompt.
			problems = append(problems, fmt.Sprintf("%s: a link to %s, outside %s (%s): not read", f.name, target, f.inside, f.root))
			continue
		}
		d, err := readOne(f.path, f.name, left)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s: %v, not read", f.name, err))
			continue
		}
		if d.Size == 0 {
			continue // an empty file says nothing
		}
		left -= d.Size - d.Cut
		docs = append(docs, d)
	}
	for i, j := 0, len(docs)-1; i < j; i, j = i+1, j-1 {
		docs[i], docs[j] = docs[j], docs[i]
	}
	return docs, problems
}

// place is one instructions file to read: its path, its name in the
// prompt, and the folder it must stay in, links followed.
type place struct {
	path, name, root string
	// inside names root in a problem: "the project", "your mm folder".
	inside string
}

// present is the first of FileNames in dir, if any: one that is there,
// even as a link that leads nowhere or a file that cannot be read, is the
// folder's, and the others are not read.
func present(dir string) (string, bool) {
	for _, name := range FileNames {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			return name, true
		}
	}
	return "", false
}

// readOne reads path, keeping at most left bytes of it.
func readOne(path, name string, left int64) (Doc, error) {
	f, fi, err := regularfile.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && !errors.Is(err, fs.ErrNotExist) {
			err = pe.Err
		}
		return Doc{}, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max(left, 0)))
	if err != nil {
		return Doc{}, err
	}
	b = textcut.Bytes(b, len(b))
	text := strings.ToValidUTF8(string(b), "\uFFFD")
	d := Doc{Name: name, Text: text, Size: fi.Size()}
	if int64(len(b)) < fi.Size() {
		d.Cut = fi.Size() - int64(len(b))
	}
	return d, nil
}

// Prompt is the part of the system prompt the docs make, "" for none:
//
//	# Project instructions (AGENTS.md)
//
//	## AGENTS.md
//
//	<its text>
//
// one "## <name>" section per file, root first; a cut file ends with a line
// saying how much was left out.
func Prompt(docs []Doc) string {
	if len(docs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Project instructions (AGENTS.md)\n\nThe nearest file comes last and wins where they disagree.")
	for _, d := range docs {
		fmt.Fprintf(&b, "\n\n## %s", d.Name)
		if text := strings.TrimRight(d.Text, "\n"); text != "" {
			b.WriteString("\n\n" + text)
		}
		switch {
		case d.Cut > 0 && d.Text == "":
			fmt.Fprintf(&b, "\n\n[%s (%s) was left out: the files nearer the working directory filled mm's limit of %s for AGENTS.md files]",
				d.Name, regularfile.FormatSize(d.Size), regularfile.FormatSize(MaxBytes))
		case d.Cut > 0:
			fmt.Fprintf(&b, "\n\n[%s was cut: %s of %s left out, over mm's limit of %s for AGENTS.md files]",
				d.Name, regularfile.FormatSize(d.Cut), regularfile.FormatSize(d.Size), regularfile.FormatSize(MaxBytes))
		}
	}
	return b.String()
}
