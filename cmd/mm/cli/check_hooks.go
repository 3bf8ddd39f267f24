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

// checkHooks checks what each hook and wasm tool of c needs to run, for
// mm check: a command hook's program (on $PATH, or the file it names,
// executable) and the script an interpreter of it runs (check_words.go);
// a wasm module that compiles, and its read: and write: folders in cwd.
// One line per problem, naming the hook as "hooks.<event>[i]"; a guard
// (preGeneration, preToolCall, preAsk) that would fail open says so. A
// command is read as sh -c would read it in cwd, the hook's working
// directory, with the variables the run sets (MM_CONFIG_DIR, …).
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
				if err == nil {
					err = wasm.CheckFolders(cwd, e.Read, e.Write)
				}
			} else {
				err = checkCommand(e.Command, cwd, hookLookup(ev, e.ConfigDir, c.Abs, getenv), getenv("PATH"))
			}
			if err != nil {
				problems = append(problems, where+": "+err.Error()+failsOpen(ev, e.OnError))
			}
		}
	}
	for _, t := range c.WasmTools {
		err := checkModule(ctx, &rt, t.Module)
		if err == nil {
			err = wasm.CheckFolders(cwd, t.Read, t.Write)
		}
		if err != nil {
			problems = append(problems, "tools: "+t.Name+": "+err.Error())
		}
	}
	return problems
}

// hookLookup gives the variables a command hook of event ev, declared in
// configDir, runs with: mm's own, and the environment's that are set.
func hookLookup(ev hooks.Event, configDir, config string, getenv func(string) string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		switch name {
		case "MM_CONFIG_DIR":
			return configDir, true
		case "MM_HOOK_EVENT":
			return string(ev), true
		case "MM_CONFIG":
			return config, config != ""
		case "MM_BIN":
			return "", false // the session sets it
		}
		v := getenv(name)
		return v, v != ""
	}
}

// failsOpen is what mm check adds to a problem of a guard hook whose
// onError lets what it guards go on when it fails (hooks reference,
// Failures): "" for another event, or under onError: fail.
func failsOpen(ev hooks.Event, onError string) string {
	if onError == "" {
		onError = hooks.OnErrorWarn
	}
	var goesOn, fail string
	switch ev {
	case hooks.PreGeneration:
		goesOn, fail = "the turn goes on without it", "stop the turn"
	case hooks.PreToolCall:
		goesOn, fail = "the tool calls it matches run", "deny them"
	case hooks.PreAsk:
		goesOn, fail = "the hand-offs it matches go ahead", "deny them"
	default:
		return ""
	}
	if onError == hooks.OnErrorFail {
		return ""
	}
	return "; this guard fails open: with onError: " + onError + " " + goesOn + " when it fails — set onError: fail to " + fail + " instead"
}

// checkModule compiles the wasm module at path with *rt, made at the first
// module.
func checkModule(ctx context.Context, rt **wasm.Runtime, path string) error {
	if *rt == nil {
		*rt = wasm.New(wasm.Options{})
	}
	return (*rt).Check(ctx, path)
}

// checkCommand finds the program command starts, as sh -c would (on
// path, or, when it names a file, that file, executable), and the script
// file an interpreter of it runs (scriptOf). It says nothing of a command
// it cannot read without a shell (a variable lookup does not know, a
// glob, a compound command, a builtin): it may be right.
func checkCommand(command, cwd string, lookup func(string) (string, bool), path string) error {
	words := commandWords(command, lookup)
	prog, ok := programOf(words)
	if !ok {
		return nil
	}
	if err := checkProgram(prog, cwd, path); err != nil {
		return err
	}
	script, ok := scriptOf(words)
	if !ok {
		return nil
	}
	file := script
	if !filepath.IsAbs(file) {
		file = filepath.Join(cwd, file)
	}
	st, err := os.Stat(file)
	switch {
	case err != nil && !filepath.IsAbs(script):
		return fmt.Errorf("script %s: no such file in the working directory %s (a file beside the configuration is \"$MM_CONFIG_DIR/%s\")", script, cwd, strings.TrimPrefix(script, "./"))
	case err != nil:
		return fmt.Errorf("script %s: no such file", script)
	case st.IsDir():
		return fmt.Errorf("script %s is a folder, not a file %s can run", script, prog)
	}
	return nil
}

// checkProgram finds the program prog, as sh -c would: on path, or, when
// it names a file, that file, executable.
func checkProgram(prog, cwd, path string) error {
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

// programOf is the program a command's words start (commandWords): ok
// is false when the first word is a builtin, a compound command, or one
// this reading does not follow.
func programOf(words []hookWord) (prog string, ok bool) {
	if len(words) == 0 || !words[0].ok || words[0].text == "" || shellBuiltins[words[0].text] {
		return "", false
	}
	return words[0].text, true
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
