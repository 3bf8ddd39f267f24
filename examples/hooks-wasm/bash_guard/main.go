// Command bash_guard is a preToolCall hook, built as a WebAssembly module
// (see ../build.sh), that denies the bash commands which would wipe the
// file system, a home folder or a disk, and lets every other call continue.
//
// It reads the hook's input on stdin and writes its reply on stdout, like
// any hook; mm runs it in a sandbox where it sees no file at all.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"regexp"
	"strings"
)

// input is the part of the hook's input this hook reads.
type input struct {
	Event string `json:"event"`
	Tool  struct {
		Name  string `json:"name"`
		Input struct {
			Command string `json:"command"`
		} `json:"input"`
	} `json:"tool"`
}

// reply is the hook's answer.
type reply struct {
	Action string `json:"action"`
	Reason string `json:"reason,omitempty"`
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fmt.Fprintln(os.Stderr, "bash_guard: cannot read the hook input:", err)
		os.Exit(1)
	}
	out := reply{Action: "continue"}
	if in.Tool.Name == "bash" {
		if why := refuse(in.Tool.Input.Command); why != "" {
			out = reply{Action: "deny", Reason: "bash_guard: " + why}
		}
	}
	json.NewEncoder(os.Stdout).Encode(out)
}

// patterns are the commands refused outright, with the reason the model
// reads.
var patterns = []struct {
	re     *regexp.Regexp
	reason string
}{
	{regexp.MustCompile(`--no-preserve-root`), "it turns off rm's protection of /"},
	{regexp.MustCompile(`\bmkfs(\.\w+)?\s`), "it would format a disk"},
	{regexp.MustCompile(`\bdd\b[^|;&]*\bof=/dev/(sd|nvme|hd|vd|xvd|mmcblk|disk)`), "it would overwrite a disk"},
	{regexp.MustCompile(`:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:`), "it is a fork bomb"},
}

// refuse returns why command must not run, or "".
func refuse(command string) string {
	for _, p := range patterns {
		if p.re.MatchString(command) {
			return p.reason
		}
	}
	for _, simple := range regexp.MustCompile(`&&|\|\||[;&|\n]`).Split(command, -1) {
		if target := wipeTarget(strings.Fields(simple)); target != "" {
			return "rm -r on " + target + " would delete everything under it"
		}
	}
	return ""
}

// wipeTarget returns the folder a recursive rm would wipe when it is the
// whole file system or the home folder, or "".
func wipeTarget(words []string) string {
	for len(words) > 0 && (words[0] == "sudo" || words[0] == "command" || words[0] == "exec") {
		words = words[1:]
	}
	if len(words) == 0 || path.Base(words[0]) != "rm" {
		return ""
	}
	recursive := false
	var targets []string
	for _, w := range words[1:] {
		switch {
		case w == "--recursive":
			recursive = true
		case strings.HasPrefix(w, "--"):
		case strings.HasPrefix(w, "-") && len(w) > 1:
			recursive = recursive || strings.ContainsAny(w, "rR")
		default:
			targets = append(targets, strings.Trim(w, `"'`))
		}
	}
	if !recursive {
		return ""
	}
	for _, t := range targets {
		t = strings.TrimSuffix(t, "/*")
		t = strings.NewReplacer("${HOME}", "~", "$HOME", "~").Replace(t)
		if t == "" || t == "~" || t == "~/" || path.Clean(t) == "/" {
			if t == "" {
				t = "/"
			}
			return t
		}
	}
	return ""
}
