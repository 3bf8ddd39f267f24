package skills

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/internal/strictyaml"
	"github.com/mm-agent/mm/internal/textcut"
)

// FileName is the file that makes a folder a skill.
const FileName = "SKILL.md"

// Limits of a SKILL.md, from the Agent Skills format where it sets one.
const (
	// MaxNameLen is the format's bound on a name.
	MaxNameLen = 64
	// MaxDescriptionLen is the format's bound on a description.
	MaxDescriptionLen = 1024
	// MaxFileBytes bounds a SKILL.md: the format asks for instructions of
	// under 5,000 tokens, some 20 KiB; 256 KiB (some 64,000 tokens) leaves
	// room for a long one and still fits a local model's context.
	MaxFileBytes = 256 << 10
	// maxHeadBytes bounds what is read of a SKILL.md to find its front
	// matter when skills are listed: a name and a description of at most
	// 1,024 characters, and the format's few other keys, fit in it.
	maxHeadBytes = 16 << 10
	// listDescription is how much of a description the model's list shows
	// (characters): one short line per skill keeps the system prompt small.
	listDescription = 160
)

// Skill is one skill: its name, its description, and where its SKILL.md is.
type Skill struct {
	Name        string
	Description string
	// Dir is the skill's folder, absolute; File its SKILL.md.
	Dir, File string
}

// ListLine is the skill's line in the list offered to the model:
// "- <name>: <description>", the description on one line and cut to 160
// characters.
func (s Skill) ListLine() string {
	return "- " + s.Name + ": " + textcut.Ellipsis(strings.Join(strings.Fields(s.Description), " "), listDescription)
}

// Instructions reads the skill's SKILL.md as it is now, whole (front matter
// included, since it may say more than the name and description), up to
// MaxFileBytes.
func (s Skill) Instructions() (string, error) {
	b, err := regularfile.ReadFile(s.File, MaxFileBytes, "a SKILL.md")
	if err != nil {
		return "", fmt.Errorf("skill %s: cannot read %s: %w", s.Name, s.File, regularfile.Cause(err))
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("skill %s: %s is not UTF-8 text", s.Name, s.File)
	}
	return string(b), nil
}

// validName reports whether name is the format's: lowercase letters, digits
// and hyphens, not starting or ending with a hyphen, no two in a row.
func ValidName(name string) bool {
	if name == "" || len(name) > MaxNameLen || name[0] == '-' || name[len(name)-1] == '-' || strings.Contains(name, "--") {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// readHead reads a skill's front matter: its name and description.
func readHead(dir string) (Skill, error) {
	file := filepath.Join(dir, FileName)
	f, _, err := regularfile.Open(file)
	if err != nil {
		return Skill{}, regularfile.Cause(err)
	}
	defer f.Close()
	head, err := io.ReadAll(io.LimitReader(f, maxHeadBytes))
	if err != nil {
		return Skill{}, err
	}
	name, desc, err := frontMatter(head)
	if err != nil {
		return Skill{}, err
	}
	return Skill{Name: name, Description: desc, Dir: dir, File: file}, nil
}

// frontMatter reads the name and description of the YAML front matter at
// the start of head, between two "---" lines. Other keys (license,
// metadata, allowed-tools, …) are the format's and are left alone.
func frontMatter(head []byte) (name, desc string, err error) {
	root, _, found, err := strictyaml.FrontMatter(head)
	switch {
	case !found:
		return "", "", errors.New(`no front matter: the file must start with a "---" line, then name: and description:, then "---"`)
	case errors.Is(err, strictyaml.ErrUnclosed):
		return "", "", fmt.Errorf(`the front matter has no closing "---" line within the file's first %s`, regularfile.FormatSize(maxHeadBytes))
	case err != nil:
		return "", "", fmt.Errorf("front matter: %w", err)
	}
	if root == nil || root.Kind != yaml.MappingNode {
		return "", "", strictyaml.At(root, errors.New("front matter: want a map with name: and description:"))
	}
	// Each error is at the line of its key (a *strictyaml.PosError).
	var nameKey, descKey *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "name", "description":
			if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
				return "", "", strictyaml.Errorf(v, "front matter: %s: want a string", k.Value)
			}
			if k.Value == "name" {
				name, nameKey = v.Value, k
			} else {
				desc, descKey = v.Value, k
			}
		}
	}
	switch {
	case name == "":
		return "", "", errors.New("front matter: no name: give the skill a name (lowercase letters, digits and hyphens)")
	case !ValidName(name):
		return "", "", strictyaml.Errorf(nameKey, "front matter: name %q: want lowercase letters, digits and hyphens, at most %d characters, no hyphen at either end or twice in a row", name, MaxNameLen)
	case strings.TrimSpace(desc) == "":
		return "", "", strictyaml.At(descKey, fmt.Errorf("front matter: skill %s has no description: say in one line what it does and when to use it", name))
	case utf8.RuneCountInString(desc) > MaxDescriptionLen:
		return "", "", strictyaml.Errorf(descKey, "front matter: skill %s: description over %d characters", name, MaxDescriptionLen)
	}
	return name, desc, nil
}

// Message is what the model reads when the skill is loaded: a line naming
// it and its folder (for the files beside SKILL.md), its SKILL.md, and a
// closing line. show turns an absolute path into the one the model reads
// (relative to the working directory when inside it).
func (s Skill) Message(show func(string) string) (string, error) {
	text, err := s.Instructions()
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("[skill %s, from %s: follow its instructions; its other files are in %s]\n%s\n[end of skill %s]",
		s.Name, show(s.File), show(s.Dir), strings.TrimRight(text, "\n"), s.Name), nil
}
