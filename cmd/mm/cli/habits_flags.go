package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/regularfile"
)

// habitFlags are the flags people bring from other agent CLIs (issue 41):
// -C, the system prompt's four, --max-turns and --verbose.
type habitFlags struct {
	// cd is -C/--cd: the folder mm runs as if started in.
	cd string
	// system is --system-prompt, systemFile --system-prompt-file; add and
	// addFile their --append-… forms.
	system, systemFile, add, addFile string
	// maxTurns is --max-turns: the model calls of a turn, over maxSteps;
	// 0 when not given.
	maxTurns int
	// verbose is --verbose: what the model sends and receives, on stderr.
	verbose bool
}

// addHabitFlags puts them on the root command, for every command.
func addHabitFlags(root *cobra.Command, h *habitFlags) {
	pf := root.PersistentFlags()
	pf.StringVarP(&h.cd, "cd", "C", "", "run as if mm was started in `DIR` (its agent.yaml, its sessions, the tools' working directory)")
	pf.StringVar(&h.system, "system-prompt", "", "the system prompt, in place of the configuration's system:")
	pf.StringVar(&h.systemFile, "system-prompt-file", "", "the system prompt, read from `FILE`")
	pf.StringVar(&h.add, "append-system-prompt", "", "text added at the end of the configuration's system prompt")
	pf.StringVar(&h.addFile, "append-system-prompt-file", "", "text added at the end of the system prompt, read from `FILE`")
	pf.IntVar(&h.maxTurns, "max-turns", 0, "the model calls one turn may make (one question of -p), over maxSteps:")
	pf.BoolVar(&h.verbose, "verbose", false, "write on stderr what mm sends to the model's server and receives (API keys left out), for a bug report")
}

// check refuses what the flags cannot mean together, before anything runs;
// changed says which flags were given.
func (h *habitFlags) check(changed func(name string) bool) error {
	switch {
	case h.system != "" && h.systemFile != "":
		return errors.New("give one of --system-prompt and --system-prompt-file")
	case h.add != "" && h.addFile != "":
		return errors.New("give one of --append-system-prompt and --append-system-prompt-file")
	case changed("max-turns") && h.maxTurns < 1:
		return fmt.Errorf("--max-turns %d: want a whole number of at least 1", h.maxTurns)
	case changed("cd") && strings.TrimSpace(h.cd) == "":
		return errors.New("-C: give a folder")
	}
	return nil
}

// chdir makes -C's folder the working directory every command reads
// (s.Getwd), as git -C does: relative to the folder mm was started in, and
// a folder.
func (h *habitFlags) chdir(s *streams) error {
	if h.cd == "" {
		return nil
	}
	dir := h.cd
	if !filepath.IsAbs(dir) {
		wd, err := s.Getwd()
		if err != nil {
			return err
		}
		dir = filepath.Join(wd, dir)
	}
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("-C %s: %v", h.cd, err)
	case !fi.IsDir():
		return fmt.Errorf("-C %s: not a folder", h.cd)
	}
	dir = filepath.Clean(dir)
	s.Getwd = func() (string, error) { return dir, nil }
	return nil
}

// applySystem gives c the system prompt the flags say: --system-prompt's
// (or its file's) in place of the configuration's system:, then
// --append-system-prompt's (or its file's) after it, past a blank line.
// The AGENTS.md files, the skills and a structuredOutput schema still
// follow, as they follow system:. A file is relative to cwd and read as a
// systemFile is.
func (h *habitFlags) applySystem(c *mmconfigs.Config, cwd string) error {
	system, err := flagText("--system-prompt-file", h.system, h.systemFile, cwd)
	if err != nil {
		return err
	}
	add, err := flagText("--append-system-prompt-file", h.add, h.addFile, cwd)
	if err != nil {
		return err
	}
	if system != "" {
		c.System = system
	}
	if add != "" {
		c.System = strings.TrimRight(c.System, "\n") + "\n\n" + add
	}
	return nil
}

// flagText is text, or the content of file (relative to cwd) without its
// last line breaks, named so in its error by flag.
func flagText(flag, text, file, cwd string) (string, error) {
	if file == "" {
		return text, nil
	}
	p := file
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	b, err := regularfile.ReadFile(p, mmconfigs.MaxSystemFileBytes, "a system prompt file")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", fmt.Errorf("%s %s: cannot read it: %v", flag, file, err)
	}
	return strings.TrimRight(string(b), "\n"), nil // as a shell's $(cat file) reads it
}

// trace is what --verbose gives the session: each line on stderr, made
// visible on one line (a server's reply is its own); nil without it.
func (h *habitFlags) trace(s *streams) func(string) {
	if !h.verbose {
		return nil
	}
	return func(line string) { fmt.Fprintln(s.ErrOut, frontend.VisibleLine(line)) }
}
