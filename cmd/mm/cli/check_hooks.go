package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mm-agent/mm/internal/hooks"
	"github.com/mm-agent/mm/internal/hooks/wasm"
	"github.com/mm-agent/mm/internal/mmconfigs"
)

// checkHooks checks that each command hook's program can be found and that
// each wasm module — a hook's or a wasm tool's — compiles, for mm check; one line per problem, naming the
// hook as "hooks.<event>[i]". A command's program is resolved as sh -c
// would in cwd, the hook's working directory.
func checkHooks(ctx context.Context, c *mmconfigs.Config, cwd string, getenv func(string) string) []string {
	var problems []string
	var rt *wasm.Runtime
	defer func() {
		if rt != nil {
			rt.Close(context.WithoutCancel(ctx))
		}
	}()
	for _, ev := range hooks.Events {
		for i, e := range c.Hooks.Entries(ev) {
			where := "hooks." + string(ev) + "[" + strconv.Itoa(i) + "]"
			var err error
			if e.Wasm != "" {
				err = checkModule(ctx, &rt, e.Wasm)
			} else {
				err = checkProgram(e.Command, e.ConfigDir, cwd, getenv("PATH"))
			}
			if err != nil {
				problems = append(problems, where+": "+err.Error())
			}
		}
	}
	for _, t := range c.WasmTools {
		if err := checkModule(ctx, &rt, t.Module); err != nil {
			problems = append(problems, "tools: "+t.Name+": "+err.Error())
		}
	}
	return problems
}

// checkModule compiles the wasm module at path with *rt, made at the first
// module.
func checkModule(ctx context.Context, rt **wasm.Runtime, path string) error {
	if *rt == nil {
		*rt = wasm.New(wasm.Options{})
	}
	return (*rt).Check(ctx, path)
}

// checkProgram finds the program command starts, as sh -c would: on path,
// or, when it names a file, that file, executable. It says nothing of a
// command it cannot read without a shell (a variable other than
// $MM_CONFIG_DIR, a glob, a compound command, a builtin): it may be right.
func checkProgram(command, configDir, cwd, path string) error {
	prog, ok := firstProgram(command, configDir)
	if !ok {
		return nil
	}
	if !strings.Contains(prog, "/") {
		if _, err := lookPath(prog, path); err != nil {
			return fmt.Errorf("program %q is not on $PATH: install it, or give its path", prog)
		}
		return nil
	}
	file := prog
	if !filepath.IsAbs(file) {
		file = filepath.Join(cwd, file)
	}
	st, err := os.Stat(file)
	switch {
	case err != nil && !filepath.IsAbs(prog):
		return fmt.Errorf("program %s: no such file in the working directory %s (a file beside the configuration is \"$MM_CONFIG_DIR/%s\")", prog, cwd, strings.TrimPrefix(prog, "./"))
	case err != nil:
		return fmt.Errorf("program %s: no such file", prog)
	case st.IsDir():
		return fmt.Errorf("program %s is a folder, not a program", prog)
	case st.Mode().Perm()&0o111 == 0:
		return fmt.Errorf("program %s is not executable: chmod +x it, or run it with its interpreter (sh %s)", prog, prog)
	}
	return nil
}

// lookPath is exec.LookPath on the list path rather than mm's own $PATH.
func lookPath(prog, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		file := filepath.Join(dir, prog)
		if st, err := os.Stat(file); err == nil && !st.IsDir() && st.Mode().Perm()&0o111 != 0 {
			return file, nil
		}
	}
	return "", exec.ErrNotFound
}

// shellBuiltins are the words sh runs itself, or that start a compound
// command: they need no program.
var shellBuiltins = map[string]bool{
	"!": true, ".": true, ":": true, "[": true, "alias": true, "break": true, "case": true,
	"cd": true, "command": true, "continue": true, "echo": true, "eval": true, "exec": true,
	"exit": true, "export": true, "false": true, "for": true, "if": true, "printf": true,
	"read": true, "return": true, "set": true, "shift": true, "test": true, "trap": true,
	"true": true, "ulimit": true, "umask": true, "unset": true, "until": true, "wait": true,
	"while": true, "{": true, "(": true,
}

// firstProgram returns the program command starts: its first word after
// any NAME=value assignments, unquoted, with $MM_CONFIG_DIR (or
// ${MM_CONFIG_DIR}) replaced by configDir. ok is false when the word is a
// builtin or holds shell syntax this reading does not follow.
func firstProgram(command, configDir string) (prog string, ok bool) {
	rest := strings.TrimLeft(command, " \t")
	for {
		word, tail, ok := shellWord(rest)
		if !ok || word == "" {
			return "", false
		}
		if name, _, isAssign := strings.Cut(word, "="); isAssign && validEnvName(name) {
			rest = strings.TrimLeft(tail, " \t")
			continue
		}
		word = strings.NewReplacer("${MM_CONFIG_DIR}", configDir, "$MM_CONFIG_DIR", configDir).Replace(word)
		if shellBuiltins[word] || strings.ContainsAny(word, "$`*?[]{}~\\") {
			return "", false
		}
		return word, true
	}
}

// shellWord splits the first word off s: plain characters and "…" or '…'
// parts, up to a blank. ok is false at an operator, a newline or an
// unclosed quote.
func shellWord(s string) (word, rest string, ok bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t':
			return b.String(), s[i:], true
		case '\n', '|', '&', ';', '<', '>', '(', ')':
			if b.Len() == 0 && c == '(' {
				return "(", s[i+1:], true
			}
			return b.String(), s[i:], b.Len() > 0
		case '"', '\'':
			end := strings.IndexByte(s[i+1:], c)
			if end < 0 {
				return "", "", false
			}
			b.WriteString(s[i+1 : i+1+end])
			i += 1 + end
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), "", true
}

// validEnvName reports whether name is a shell variable name.
func validEnvName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		if r != '_' && (r < 'A' || r > 'Z') && (r < 'a' || r > 'z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}
