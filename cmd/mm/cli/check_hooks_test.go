package cli

import "testing"

// testLookup knows $MM_CONFIG_DIR (/cfg) and $KNOWN (/known), as a hook's
// run would.
func testLookup(name string) (string, bool) {
	switch name {
	case "MM_CONFIG_DIR":
		return "/cfg", true
	case "KNOWN":
		return "/known", true
	}
	return "", false
}

func TestProgramOf(t *testing.T) {
	tests := []struct {
		command, want string
		ok            bool
	}{
		{`node "$MM_CONFIG_DIR/hooks/redact.js"`, "node", true},
		{`  python3 -u log.py`, "python3", true},
		{`"$MM_CONFIG_DIR/hooks/guard.sh" --strict`, "/cfg/hooks/guard.sh", true},
		{`${MM_CONFIG_DIR}/guard.sh`, "/cfg/guard.sh", true},
		{`./guard.sh`, "./guard.sh", true},
		{`LC_ALL=C FOO='a b' grep -q x`, "grep", true},
		{`jq .tool|grep x`, "jq", true},
		{`jq; echo`, "jq", true},
		{`'my tool' x`, "my tool", true},
		{`true`, "", false},
		{`exit 2`, "", false},
		{`echo '{"decision":"deny"}'`, "", false},
		{`if true; then x; fi`, "", false},
		{`(cd x && y)`, "", false},
		{`$HOME/bin/x`, "", false},
		{`"$KNOWN/x" y`, "/known/x", true},
		{`'$MM_CONFIG_DIR/x'`, "$MM_CONFIG_DIR/x", true},
		{`$(which node) x.js`, "", false},
		{`"$HOOK" x`, "", false},
		{`~/bin/x`, "", false},
		{`x*`, "", false},
		{`"unclosed`, "", false},
		{`FOO=1`, "", false},
		{`|x`, "", false},
		{``, "", false},
	}
	for _, tt := range tests {
		got, ok := programOf(commandWords(tt.command, testLookup))
		if got != tt.want || ok != tt.ok {
			t.Errorf("programOf(%q) = %q, %v; want %q, %v", tt.command, got, ok, tt.want, tt.ok)
		}
	}
}

// TestScriptOf: the one argument mm check reads as a file besides the
// program is an interpreter's script, its first operand after the options
// that take no value; anything it cannot be sure of is not read.
func TestScriptOf(t *testing.T) {
	tests := []struct {
		command, want string
		ok            bool
	}{
		{`node "$MM_CONFIG_DIR/hooks/nope.js"`, "/cfg/hooks/nope.js", true},
		{`node ${MM_CONFIG_DIR}/hooks/a.js --flag x`, "/cfg/hooks/a.js", true},
		{`/usr/bin/python3 -u log.py`, "log.py", true},
		{`python3.12 -B -- ./log.py`, "./log.py", true},
		{`LC_ALL=C sh -eu hooks/guard.sh | tee x`, "hooks/guard.sh", true},
		{`bash "$KNOWN/g.sh"`, "/known/g.sh", true},
		{`ruby -w r.rb`, "r.rb", true},
		{`node --no-warnings h.mjs`, "h.mjs", true},
		{`sh -c 'exit 0'`, "", false},
		{`python3 -m http.server`, "", false},
		{`python3 -W ignore x.py`, "", false},
		{`node -e 'x'`, "", false},
		{`node --require ./r.js h.js`, "", false},
		{`node "$HOOK"`, "", false},
		{`node $HOOKS/x.js`, "", false},
		{`node *.js`, "", false},
		{`node`, "", false},
		{`python3 -`, "", false},
		{`jq . x.json`, "", false},
		{`"$MM_CONFIG_DIR/hooks/guard.sh" arg`, "", false},
		{`bun run x.js`, "", false},
	}
	for _, tt := range tests {
		got, ok := scriptOf(commandWords(tt.command, testLookup))
		if got != tt.want || ok != tt.ok {
			t.Errorf("scriptOf(%q) = %q, %v; want %q, %v", tt.command, got, ok, tt.want, tt.ok)
		}
	}
}
