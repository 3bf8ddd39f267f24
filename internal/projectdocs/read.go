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
)

// FileName is the file read in each folder.
const FileName = "AGENTS.md"

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

// Read reads the AGENTS.md files from the root of cwd's project down to cwd,
// the root's first. The nearest files are kept first when the bound is
// reached: a file that does not fit is cut, and those farther up are left
// out (Doc.Cut says so). A file that cannot be read (a named pipe, no
// permission) is a problem, one line naming it; the others are still read.
func Read(cwd string) ([]Doc, []string) {
	root := Root(cwd)
	var dirs []string // nearest first
	for dir := cwd; ; dir = filepath.Dir(dir) {
		dirs = append(dirs, dir)
		if dir == root || filepath.Dir(dir) == dir {
			break
		}
	}
	var docs []Doc
	var problems []string
	left := int64(MaxBytes)
	for _, dir := range dirs {
		name := FileName
		if rel, err := filepath.Rel(root, dir); err == nil && rel != "." {
			name = filepath.ToSlash(filepath.Join(rel, FileName))
		}
		path := filepath.Join(dir, FileName)
		if target := regularfile.Outside(root, path); target != "" {
			// A cloned project's AGENTS.md -> ../../.ssh/id_rsa must not
			// put the key in the system prompt.
			problems = append(problems, fmt.Sprintf("%s: a link to %s, outside the project (%s): not read", name, target, root))
			continue
		}
		d, err := readOne(path, name, left)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s: %v, not read", name, err))
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
