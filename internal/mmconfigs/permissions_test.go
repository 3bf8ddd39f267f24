package mmconfigs

import (
	"strings"
	"testing"
)

// TestPermissions: permissions: reads allow and deny, each a list of rules
// written as a string or as a map of one key; the rules keep the file's
// order.
func TestPermissions(t *testing.T) {
	body := `permissions:
  allow:
    - read_file
    - bash: go test *
    - "bash: go vet ./..."
    - wc
    - fs__read_file
  deny:
    - bash: rm -rf *
    - 'write_file: ~/.ssh/**'
tools:
  - bash
  - {name: wc, description: counts words, wasm: wc.wasm}
mcpServers:
  fs: {command: fs-server}
`
	dir := t.TempDir()
	writeConfig(t, dir, "wc.wasm", "")
	writeConfig(t, dir, "agent.yaml", body)
	c, err := Load("agent.yaml", dir, noenv)
	if err != nil {
		t.Fatal(err)
	}
	var allow, deny []string
	for _, r := range c.Permissions.Allow {
		allow = append(allow, r.String())
	}
	for _, r := range c.Permissions.Deny {
		deny = append(deny, r.String())
	}
	if got, want := strings.Join(allow, " | "), "read_file | bash: go test * | bash: go vet ./... | wc | fs__read_file"; got != want {
		t.Errorf("allow: %s\nwant:  %s", got, want)
	}
	if got, want := strings.Join(deny, " | "), "bash: rm -rf * | write_file: ~/.ssh/**"; got != want {
		t.Errorf("deny: %s\nwant: %s", got, want)
	}
}

// TestPermissionErrors: every mistake in permissions: is one line at the
// line of the entry it is about, as the other keys' are.
func TestPermissionErrors(t *testing.T) {
	for _, tt := range []struct{ name, body, want string }{
		{"an unknown key", "permissions:\n  alow: [read_file]\n",
			`agent.yaml:2: permissions: unknown key "alow" (did you mean "allow"?)`},
		{"an unknown key far from both", "permissions:\n  ask: [read_file]\n",
			`agent.yaml:2: permissions: unknown key "ask" (known: allow, deny)`},
		{"not a map", "permissions: [read_file]\n",
			`agent.yaml:1: permissions: want a map with allow and deny, not a list`},
		{"not a list", "permissions:\n  allow: read_file\n",
			`agent.yaml:2: permissions.allow: want a list of rules (- read_file, - bash: go test *), not "read_file"`},
		{"an unknown tool", "model: echo/x\npermissions:\n  allow:\n    - read_file\n    - bsh: go test *\n",
			`agent.yaml:5: permissions.allow[1]: unknown tool "bsh" (did you mean "bash"?)`},
		{"an unknown tool far from all", "permissions:\n  deny:\n    - curl\n",
			`agent.yaml:3: permissions.deny[0]: unknown tool "curl" (known: bash, read_file, write_file, edit_file, ask_agent, load_skill; an MCP server's tools are <server>__<tool>)`},
		{"an unknown MCP server", "mcpServers:\n  files: {command: x}\npermissions:\n  allow: [file__read]\n",
			`agent.yaml:4: permissions.allow[0]: unknown tool "file__read": no MCP server "file" in mcpServers (did you mean "files"?)`},
		{"no MCP server", "permissions:\n  allow: [fs__read]\n",
			`agent.yaml:2: permissions.allow[0]: unknown tool "fs__read": an MCP server's tools are <server>__<tool>, and mcpServers lists none`},
		{"a malformed pattern", "permissions:\n  deny:\n    - bash: rm -rf $HOME\n",
			`agent.yaml:3: permissions.deny[0]: "bash: rm -rf $HOME": "$HOME" is made by the shell when it runs ($, ` + "`" + `, $( ), {a,b}): write the words as the command spells them`},
		{"two commands", "permissions:\n  allow:\n    - 'bash: go test * && go vet *'\n",
			`agent.yaml:3: permissions.allow[0]: "bash: go test * && go vet *": a pattern is one command of plain words, without ;, &&, ||, | or a compound command`},
		{"nothing after the tool", "permissions:\n  allow:\n    - bash:\n",
			`agent.yaml:3: permissions.allow[0]: nothing after "bash:": write "bash" alone for every call of it`},
		{"a pattern for an MCP tool", "mcpServers:\n  fs: {command: x}\npermissions:\n  allow:\n    - fs__read: /etc\n",
			`agent.yaml:5: permissions.allow[0]: fs__read takes no pattern (mm does not know what its calls act on): write "fs__read" alone`},
		{"two rules in one entry", "permissions:\n  allow:\n    - {bash: ls, read_file: x}\n",
			`agent.yaml:3: permissions.allow[0]: one rule per entry: write each tool's rule as its own - line`},
		{"a list for a pattern", "permissions:\n  allow:\n    - bash: [ls, cat]\n",
			`agent.yaml:3: permissions.allow[0]: want a rule like bash: go test *, not a list after "bash:"`},
		{"a number", "permissions:\n  allow: [3]\n",
			`agent.yaml:2: permissions.allow[0]: unknown tool "3" (known: bash, read_file, write_file, edit_file, ask_agent, load_skill; an MCP server's tools are <server>__<tool>)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeConfig(t, dir, "agent.yaml", tt.body)
			_, err := Load("agent.yaml", dir, noenv)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Load error\n got: %v\nwant: %s", err, tt.want)
			}
		})
	}
}
