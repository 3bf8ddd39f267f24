package cli

import "testing"

func TestFirstProgram(t *testing.T) {
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
		{`"$HOOK" x`, "", false},
		{`~/bin/x`, "", false},
		{`x*`, "", false},
		{`"unclosed`, "", false},
		{`FOO=1`, "", false},
		{`|x`, "", false},
		{``, "", false},
	}
	for _, tt := range tests {
		got, ok := firstProgram(tt.command, "/cfg")
		if got != tt.want || ok != tt.ok {
			t.Errorf("firstProgram(%q) = %q, %v; want %q, %v", tt.command, got, ok, tt.want, tt.ok)
		}
	}
}
