package question

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/internal/skills"
	"github.com/mm-agent/mm/internal/suggest"
	"github.com/mm-agent/mm/internal/textcut"
)

// Limits of what one line brings in.
const (
	// MaxFileBytes bounds the text of one @path file: 64 KiB is some 16,000
	// tokens, a quarter to a half of a local model's usual context; a
	// longer file is cut at a line break, with a note, and the model's
	// tools can read the rest a page at a time.
	MaxFileBytes = 64 << 10
	// MaxEntries bounds a folder's listing: a thousand names is already
	// more than a model can use; the note says how many were left out.
	MaxEntries = 1000
)

// Options say where paths and skills are found.
type Options struct {
	// Cwd is the session's working directory, absolute: paths are relative
	// to it.
	Cwd string
	// Home stands for a leading ~/ of a path; "" leaves ~ as written.
	Home string
	// Skills are the skills a $name line may load.
	Skills *skills.Set
	// Show turns an absolute path into the one the model reads (a skill's
	// folder); nil leaves it absolute.
	Show func(string) string
}

// Error is a line that cannot be expanded; its text names the line as typed
// and says what to do.
type Error struct {
	Line string
	Msg  string
}

// Error is "<line as typed>: <what is wrong>".
func (e *Error) Error() string { return e.Line + ": " + e.Msg }

// Expand returns text with each @path and $name line replaced by what it
// names, then what the @paths inside its sentences name (inline.go), and
// whether anything was brought in. The first line that cannot be expanded
// (no such file, a named pipe, a binary file, an unknown skill) is an
// *Error and nothing is returned: the question is not sent half-expanded.
func Expand(text string, opts Options) (string, bool, error) {
	if !strings.Contains(text, "@") && !strings.Contains(text, "$") {
		return text, false, nil // the common case: nothing to look at
	}
	lines := strings.Split(text, "\n")
	// skip marks the lines no inline @path is looked for in: a fence's,
	// and the @path and $name lines.
	skip := make([]bool, len(lines))
	seen := map[string]bool{}
	var fence fenceState
	changed := false
	for i, line := range lines {
		if fence.inside(line) {
			skip[i] = true
			continue
		}
		bare := strings.TrimRight(line, " \t\r")
		var out string
		var err error
		if p, ok := PathLine(bare); ok {
			seen[resolve(p, opts)] = true
			out, err = expandPath(p, opts)
		} else if name, ok := SkillLine(bare); ok {
			out, err = expandSkill(name, opts)
		} else {
			continue
		}
		if err != nil {
			return "", false, &Error{Line: bare, Msg: err.Error()}
		}
		lines[i], skip[i], changed = out, true, true
	}
	blocks, err := expandInline(lines, skip, opts, seen)
	if err != nil {
		return "", false, err
	}
	if !changed && len(blocks) == 0 {
		return text, false, nil
	}
	out := strings.Join(lines, "\n")
	if len(blocks) > 0 {
		out += "\n\n" + strings.Join(blocks, "\n\n")
	}
	return out, true, nil
}

// PathLine returns the path of a line that is @<path>: "@" at the start of
// the line, then a path without white space, or one in double quotes
// (@"my notes.md"). A line with more words ("@bob, look at this") is text.
func PathLine(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "@")
	if !ok || rest == "" {
		return "", false
	}
	if len(rest) >= 2 && rest[0] == '"' && rest[len(rest)-1] == '"' {
		p := rest[1 : len(rest)-1]
		if p == "" || strings.Contains(p, `"`) {
			return "", false
		}
		return p, true
	}
	if strings.ContainsAny(rest, " \t\"") {
		return "", false
	}
	return rest, true
}

// SkillLine returns the name of a line that is $<name>, a skill's name
// (lowercase letters, digits and hyphens).
func SkillLine(line string) (string, bool) {
	name, ok := strings.CutPrefix(line, "$")
	if !ok || !skills.ValidName(name) {
		return "", false
	}
	return name, true
}

// resolve makes a typed path absolute.
func resolve(p string, opts Options) string {
	if opts.Home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		p = filepath.Join(opts.Home, p[1:])
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(opts.Cwd, p)
}

// expandPath is the text of an @path line: the file or the folder p names.
func expandPath(p string, opts Options) (string, error) {
	abs := resolve(p, opts)
	fi, err := os.Stat(abs)
	if err != nil {
		return "", describe(err)
	}
	if fi.IsDir() {
		return listing(p, abs)
	}
	return file(p, abs)
}

// describe is an error reading a path, for a person who typed it.
func describe(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("no such file or folder (a path is relative to the working directory; a line that is @<path> reads one — put the line in a ``` fence to send it as typed)")
	case errors.Is(err, fs.ErrPermission):
		return errors.New("permission denied")
	}
	var nr *regularfile.NotRegularError
	if errors.As(err, &nr) {
		return fmt.Errorf("%s, not a file mm reads: give a regular file or a folder", regularfile.Kind(nr.Mode))
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// file is the fenced, named content of the file at abs, cut to
// MaxFileBytes; a binary file is refused.
func file(p, abs string) (string, error) {
	f, fi, err := regularfile.Open(abs)
	if err != nil {
		return "", describe(err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return "", describe(err)
	}
	head, cut := cutText(b, MaxFileBytes)
	if reason := binary(head); reason != "" {
		return "", fmt.Errorf("%s: mm brings in text files only (a tool may read it)", reason)
	}
	var out strings.Builder
	fmt.Fprintf(&out, "[file: %s]\n", p)
	fenced(&out, string(head))
	if cut {
		size := max(fi.Size(), int64(len(b)))
		fmt.Fprintf(&out, "\n[%s was cut: the first %s of %s are above, the rest is left out (mm's limit for an @path file); read it with a tool]",
			p, regularfile.FormatSize(int64(len(head))), regularfile.FormatSize(size))
	}
	return out.String(), nil
}

// cutText returns b cut to max bytes, at the last line break within them
// when there is one, else at a character boundary, and whether it was cut.
func cutText(b []byte, max int) ([]byte, bool) {
	if len(b) <= max {
		return b, false
	}
	b = b[:max]
	if i := strings.LastIndexByte(string(b), '\n'); i > 0 {
		return b[:i+1], true
	}
	return textcut.Bytes(b, max), true
}

// listing is the fenced, named listing of the folder at abs: one name a
// line, folders ending in "/".
func listing(p, abs string) (string, error) {
	entries, err := os.ReadDir(abs)
	if err != nil {
		return "", describe(err)
	}
	var names strings.Builder
	for i, e := range entries {
		if i == MaxEntries {
			break
		}
		names.WriteString(e.Name())
		if e.IsDir() {
			names.WriteByte('/')
		}
		names.WriteByte('\n')
	}
	var out strings.Builder
	n := len(entries)
	fmt.Fprintf(&out, "[folder: %s, %d %s]\n", p, n, plural(n, "entry", "entries"))
	fenced(&out, names.String())
	if n > MaxEntries {
		fmt.Fprintf(&out, "\n[%s: the first %d entries are above, %d more are left out (mm's limit for a folder's listing)]", p, MaxEntries, n-MaxEntries)
	}
	return out.String(), nil
}

// expandSkill is the text of a $name line: the skill's SKILL.md.
func expandSkill(name string, opts Options) (string, error) {
	sk, ok := opts.Skills.Get(name)
	switch {
	case !ok && opts.Skills.Len() == 0:
		return "", errors.New("no such skill: there are none (a skill is a folder holding a SKILL.md, in .mm/skills/, ~/.config/mm/skills/ or a skills: folder of the configuration)")
	case !ok:
		names := opts.Skills.Names()
		return "", fmt.Errorf("no such skill (known: %s)%s", strings.Join(names, ", "), suggest.DidYouMean(name, names))
	}
	show := opts.Show
	if show == nil {
		show = func(s string) string { return s }
	}
	return sk.Message(show)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
