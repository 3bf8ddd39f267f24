package cli

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReferenceValidationMessages holds the hooks reference's table
// "Validation errors" (its section of that name): one row per row of the
// table (more where its cause names several), each a configuration mm -p
// refuses with the whole line "[config error: agent.yaml:<line>: <the
// reference's message>]" and exit code 1. ref is the table's message as the
// reference writes it; the line's message must read as it does, its
// placeholders (<event>, N, <path>, <f>, <name>, …) filled in.
func TestReferenceValidationMessages(t *testing.T) {
	tests := []struct {
		name, ref, yaml, want string
	}{
		{"unknown event", `hooks: unknown event "<name>" (want one of preGeneration, preToolCall, postToolCall, postGeneration, preAsk, postAsk)`,
			"hooks:\n  preToolcall:\n    - command: \"true\"\n",
			`[config error: agent.yaml:3: hooks: unknown event "preToolcall" (want one of preGeneration, preToolCall, postToolCall, postGeneration, preAsk, postAsk) (did you mean "preToolCall"?)]`},
		{"no command and no wasm", `hooks.<event>[N]: command must not be empty (or wasm: a module)`,
			"hooks:\n  preGeneration:\n    - timeout: 5s\n",
			`[config error: agent.yaml:4: hooks.preGeneration[0]: command must not be empty (or wasm: a module)]`},
		{"a blank command", `hooks.<event>[N]: command must not be empty (or wasm: a module)`,
			"hooks:\n  preToolCall:\n    - command: \"true\"\n    - command: \"  \"\n",
			`[config error: agent.yaml:5: hooks.preToolCall[1]: command must not be empty (or wasm: a module)]`},
		{"command and wasm", `hooks.<event>[N]: give command or wasm, not both`,
			"hooks:\n  postToolCall:\n    - command: \"true\"\n      wasm: guard.wasm\n",
			`[config error: agent.yaml:5: hooks.postToolCall[0]: give command or wasm, not both]`},
		{"no module", `hooks.<event>[N]: wasm: no module at <path>`,
			"hooks:\n  postToolCall:\n    - wasm: hooks/audit.wasm\n",
			`[config error: agent.yaml:4: hooks.postToolCall[0]: wasm: no module at $DIR/hooks/audit.wasm]`},
		{"a module that is a folder", `hooks.<event>[N]: wasm: no module at <path>`,
			"hooks:\n  postToolCall:\n    - wasm: folder.wasm\n",
			`[config error: agent.yaml:4: hooks.postToolCall[0]: wasm: no module at $DIR/folder.wasm]`},
		{"read on a command", `hooks.<event>[N]: read and write only apply to a wasm hook — …`,
			"hooks:\n  postToolCall:\n    - command: \"true\"\n      read: [src]\n",
			`[config error: agent.yaml:5: hooks.postToolCall[0]: read and write only apply to a wasm hook — remove them, or give wasm: a module]`},
		{"an absolute folder", `hooks.<event>[N]: folder "<f>" must be relative to the working directory`,
			"hooks:\n  postToolCall:\n    - wasm: guard.wasm\n      read: [/etc]\n",
			`[config error: agent.yaml:5: hooks.postToolCall[0]: folder "/etc" must be relative to the working directory]`},
		{"the folder .", `hooks.<event>[N]: folder "<f>" must be a folder inside the working directory, not it or above it`,
			"hooks:\n  postToolCall:\n    - wasm: guard.wasm\n      read: [.]\n",
			`[config error: agent.yaml:5: hooks.postToolCall[0]: folder "." must be a folder inside the working directory, not it or above it]`},
		{"a folder above", `hooks.<event>[N]: folder "<f>" must be a folder inside the working directory, not it or above it`,
			"hooks:\n  postToolCall:\n    - wasm: guard.wasm\n      write: [logs/../../etc]\n",
			`[config error: agent.yaml:5: hooks.postToolCall[0]: folder "logs/../../etc" must be a folder inside the working directory, not it or above it]`},
		{"a folder twice", `hooks.<event>[N]: folder "<f>" is given twice`,
			"hooks:\n  postToolCall:\n    - wasm: guard.wasm\n      read: [logs]\n      write: [./logs/]\n",
			`[config error: agent.yaml:6: hooks.postToolCall[0]: folder "./logs/" is given twice]`},
		{"a matcher on preGeneration", `hooks.<event>[N]: matcher is only for preToolCall, postToolCall, preAsk and postAsk`,
			"hooks:\n  preGeneration:\n    - command: \"true\"\n      matcher: bash\n",
			`[config error: agent.yaml:5: hooks.preGeneration[0]: matcher is only for preToolCall, postToolCall, preAsk and postAsk]`},
		{"a matcher on postGeneration", `hooks.<event>[N]: matcher is only for preToolCall, postToolCall, preAsk and postAsk`,
			"hooks:\n  postGeneration:\n    - matcher: bash\n      command: \"true\"\n",
			`[config error: agent.yaml:4: hooks.postGeneration[0]: matcher is only for preToolCall, postToolCall, preAsk and postAsk]`},
		{"a matcher that does not compile", `hooks.<event>[N]: matcher: error parsing regexp: …`,
			"hooks:\n  preToolCall:\n    - command: \"true\"\n      matcher: ^(bash\n",
			"[config error: agent.yaml:5: hooks.preToolCall[0]: matcher: error parsing regexp: missing closing ): `^(bash`]"},
		{"a negative timeout", `hooks.<event>[N]: timeout must be >= 0`,
			"hooks:\n  postAsk:\n    - command: \"true\"\n      timeout: -5s\n",
			`[config error: agent.yaml:5: hooks.postAsk[0]: timeout must be >= 0]`},
		{"another onError", `hooks.<event>[N]: onError must be "fail", "warn" or "ignore"`,
			"hooks:\n  preAsk:\n    - command: \"true\"\n      onError: crash\n",
			`[config error: agent.yaml:5: hooks.preAsk[0]: onError must be "fail", "warn" or "ignore"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"agent.yaml": "model: echo/x\n" + tt.yaml, "guard.wasm": "\x00asm"})
			if err := os.Mkdir(filepath.Join(dir, "folder.wasm"), 0o755); err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(tt.want, "$DIR", dir)
			if !referenceMessage(tt.ref).MatchString(want) {
				t.Fatalf("the row's line %q does not give the reference's message %q after the position", want, tt.ref)
			}
			s, out, errOut := testStreams(dir, "", map[string]string{"PATH": os.Getenv("PATH")})
			code := runWith(context.Background(), nil, s, []string{"-p", "hi", "--config", "agent.yaml"})
			if code != 1 || out.Len() != 0 || errOut.String() != want+"\n" {
				t.Errorf("mm -p hi --config agent.yaml: exit %d, stdout %q\nstderr %q\nwant   %q", code, out, errOut, want+"\n")
			}
		})
	}
}

// referenceMessage is a regexp of the whole line "[config error:
// agent.yaml:<line>: <ref>]" for a message ref of the reference's table:
// <…> and N stand for any text but "]", "…" for any text; a suggestion
// may follow the message (` (did you mean "preToolCall"?)`).
func referenceMessage(ref string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`^\[config error: agent\.yaml:[0-9]+: `)
	placeholder := regexp.MustCompile(`<[a-z]+>|\[N\]|…`)
	last := 0
	for _, m := range placeholder.FindAllStringIndex(ref, -1) {
		b.WriteString(regexp.QuoteMeta(ref[last:m[0]]))
		switch ref[m[0]:m[1]] {
		case "[N]":
			b.WriteString(`\[[0-9]+\]`)
		case "…":
			b.WriteString(`.+`)
		default:
			b.WriteString(`[^\]]+`)
		}
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(ref[last:]))
	b.WriteString(`( \(did you mean "[^"]+"\?\))?\]$`)
	return regexp.MustCompile(b.String())
}
