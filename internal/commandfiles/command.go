package commandfiles

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/internal/strictyaml"
	"github.com/mm-agent/mm/internal/textcut"
)

// Ext is the ending of a command file's name: /review is review.md.
const Ext = ".md"

// Arguments is the text of a template that what follows the command on
// its line replaces.
const Arguments = "$ARGUMENTS"

// Limits of a command file.
const (
	// MaxFileBytes bounds a command file, as a SKILL.md is bounded
	// (skills.MaxFileBytes): some 64,000 tokens, room for a long template
	// that still fits a local model's context.
	MaxFileBytes = 256 << 10
	// maxHeadBytes bounds what is read of a file to list it: its front
	// matter, or its first line.
	maxHeadBytes = 16 << 10
	// MaxNameLen bounds a command's name, as a skill's is bounded.
	MaxNameLen = 64
	// MaxDescriptionLen bounds a description, as a skill's is bounded.
	MaxDescriptionLen = 1024
	// firstLineLen is how much of a file's first line stands for its
	// description when its front matter gives none (characters): one line
	// of /help.
	firstLineLen = 80
)

// Keys are the front matter's keys mm reads; any other is an error, since
// a key another agent reads (allowed-tools, model) would be ignored here
// without a word.
var Keys = []string{"description", "argument-hint"}

// Command is one command file.
type Command struct {
	// Name is the command without its slash: the file's name without Ext.
	Name string
	// Description is what /help says of it: the front matter's, else the
	// file's first line.
	Description string
	// ArgumentHint is what it takes, as /help shows it after the name
	// ("<files>"): the front matter's argument-hint; "" for none.
	ArgumentHint string
	// File is the command file, absolute.
	File string
}

// ValidName reports whether name may be a command's: letters, digits and
// hyphens, not starting with a hyphen, at most MaxNameLen — what a front
// end reads as a slash command ("/review") rather than a question.
func ValidName(name string) bool {
	if name == "" || len(name) > MaxNameLen || name[0] == '-' {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// readHead reads the command file at path, named name, for its list line:
// its front matter's description and argument-hint, else its first line.
func readHead(name, path string) (Command, error) {
	f, _, err := regularfile.Open(path)
	if err != nil {
		return Command{}, regularfile.Cause(err)
	}
	defer f.Close()
	head, err := io.ReadAll(io.LimitReader(f, maxHeadBytes))
	if err != nil {
		return Command{}, err
	}
	c := Command{Name: name, File: path}
	body, err := c.frontMatter(head)
	if errors.Is(err, strictyaml.ErrUnclosed) {
		err = fmt.Errorf(`the front matter has no closing "---" line within the file's first %s`, regularfile.FormatSize(maxHeadBytes))
	}
	if err != nil {
		return Command{}, err
	}
	if c.Description == "" {
		c.Description = firstLine(body)
	}
	return c, nil
}

// frontMatter reads the front matter text opens with, when it has one,
// into c, and returns the body after it.
func (c *Command) frontMatter(text []byte) ([]byte, error) {
	root, body, found, err := strictyaml.FrontMatter(text)
	switch {
	case !found:
		return body, nil
	case err != nil:
		return nil, fmt.Errorf("front matter: %w", err)
	case root == nil:
		return body, nil
	case root.Kind != yaml.MappingNode:
		return nil, strictyaml.At(root, errors.New("front matter: want a map with description: (and argument-hint:)"))
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		var into *string
		switch k.Value {
		case "description":
			into = &c.Description
		case "argument-hint":
			into = &c.ArgumentHint
		default:
			return nil, fmt.Errorf("front matter: %w", strictyaml.UnknownKey(k, Keys))
		}
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			return nil, strictyaml.Errorf(v, "front matter: %s: want a string", k.Value)
		}
		*into = strings.Join(strings.Fields(v.Value), " ")
	}
	if utf8.RuneCountInString(c.Description) > MaxDescriptionLen {
		return nil, strictyaml.Errorf(keyNode(root, "description"), "front matter: description over %d characters", MaxDescriptionLen)
	}
	return body, nil
}

// keyNode is the key node named key of the map n.
func keyNode(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i]
		}
	}
	return n
}

// firstLine is the first line of body that says something, a markdown
// heading's marks taken off, cut for one line of /help.
func firstLine(body []byte) string {
	for _, l := range strings.Split(string(body), "\n") {
		if l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#")); l != "" {
			return textcut.Ellipsis(l, firstLineLen)
		}
	}
	return ""
}

// Usage is how /help shows the command: "/review <files>".
func (c Command) Usage() string {
	if c.ArgumentHint != "" {
		return "/" + c.Name + " " + c.ArgumentHint
	}
	return "/" + c.Name
}

// Prompt reads the command's file as it is now and makes the question
// /<name> <args> stands for: its text after the front matter, every
// $ARGUMENTS in it replaced by args in one pass, so that what args holds
// is never read again (a $ARGUMENTS typed in them stays as it is). A text
// without $ARGUMENTS is followed by args, after a blank line, when args
// are given: nothing typed is lost.
func (c Command) Prompt(args string) (string, error) {
	b, err := regularfile.ReadFile(c.File, MaxFileBytes, "a command file")
	if err != nil {
		return "", fmt.Errorf("/%s: cannot read %s: %w", c.Name, c.File, regularfile.Cause(err))
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("/%s: %s is not UTF-8 text", c.Name, c.File)
	}
	var read Command
	body, err := read.frontMatter(b)
	if err != nil {
		return "", fmt.Errorf("/%s: %s", c.Name, strictyaml.Located(c.File, err))
	}
	text := strings.TrimSpace(string(bytes.TrimPrefix(body, []byte("\ufeff"))))
	if text == "" {
		return "", fmt.Errorf("/%s: %s says nothing: write the question it stands for", c.Name, c.File)
	}
	args = strings.TrimSpace(args)
	switch {
	case strings.Contains(text, Arguments):
		text = strings.ReplaceAll(text, Arguments, args)
	case args != "":
		text += "\n\n" + args
	}
	if strings.TrimSpace(text) == "" {
		read.Name = c.Name
		return "", fmt.Errorf("/%s is only what follows it: give that (%s)", c.Name, read.Usage())
	}
	return text, nil
}
