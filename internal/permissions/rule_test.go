package permissions

import (
	"errors"
	"strings"
	"testing"
)

// TestParse: a rule is "<tool>" or "<tool>: <pattern>"; what is wrong
// with one is said in a line that shows how to write it.
func TestParse(t *testing.T) {
	known := func(tool string) error {
		if tool == "bsh" {
			return errors.New(`unknown tool "bsh" (did you mean "bash"?)`)
		}
		return nil
	}
	for _, tt := range []struct{ text, want, err string }{
		{text: "read_file", want: "read_file"},
		{text: "bash: go test *", want: "bash: go test *"},
		{text: "  bash:go   test  * ", want: "bash: go   test  *"},
		{text: "write_file: docs/**", want: "write_file: docs/**"},
		{text: "ask_agent: expert", want: "ask_agent: expert"},
		{text: "fs__read", want: "fs__read"},
		{text: `bash: git commit -m "wip *"`, want: `bash: git commit -m "wip *"`},
		{text: "", err: `a rule names a tool: "read_file", "bash: go test *"`},
		{text: ": go test", err: `a rule names a tool: "read_file", "bash: go test *"`},
		{text: "bsh: go test *", err: `unknown tool "bsh" (did you mean "bash"?)`},
		{text: "bash:", err: `nothing after "bash:": write "bash" alone for every call of it`},
		{text: "fs__read: /etc", err: `fs__read takes no pattern (mm does not know what its calls act on): write "fs__read" alone`},
		{text: "bash: go test && rm *", err: `"bash: go test && rm *": a pattern is one command of plain words, without ;, &&, ||, | or a compound command`},
		{text: "bash: go test; rm *", err: `"bash: go test; rm *": a pattern is one command: write one rule for each`},
		{text: "bash: go test\nrm *", err: `"bash: go test\nrm *": a pattern is one command: write one rule for each`},
		{text: "bash: rm -rf $HOME", err: `"bash: rm -rf $HOME": "$HOME" is made by the shell when it runs ($, ` + "`" + `, $( ), {a,b}): write the words as the command spells them`},
		{text: "bash: rm -rf {a,b}", err: `"bash: rm -rf {a,b}": "{a,b}" is made by the shell when it runs ($, ` + "`" + `, $( ), {a,b}): write the words as the command spells them`},
		{text: "bash: go test > out", err: `"bash: go test > out": a pattern holds no redirection (>, <): a command that writes a file is always asked about`},
		{text: "bash: go test &", err: `"bash: go test &": a pattern is one command, without & or !`},
		{text: "bash: x=1 go test", err: `"bash: x=1 go test": a pattern starts with the program, not an assignment (x=1)`},
		{text: "bash: go 'test", err: `"bash: go 'test": not a command bash reads: reached EOF without closing quote ` + "`'`"},
		{text: "bash: *", err: `"bash: *": "*" alone is every command: write "bash" for that`},
	} {
		r, err := Parse(tt.text, known)
		switch {
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("Parse(%q): %v\nwant: %s", tt.text, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("Parse(%q): %v", tt.text, err)
		case tt.err == "" && r.String() != tt.want:
			t.Errorf("Parse(%q) = %q, want %q", tt.text, r.String(), tt.want)
		}
	}
}

// TestPrefixes: "always" offers, for each command of a line, its program
// and first argument when that is no flag — never more than covers the
// command, and nothing when that cannot be said in rules.
func TestPrefixes(t *testing.T) {
	for _, tt := range []struct{ command, want string }{
		{"go test ./...", "bash: go test *"},
		{"go test", "bash: go test *"},
		{"ls -la", "bash: ls *"},
		{"ls", "bash: ls *"},
		{"git -C dir status", "bash: git *"},
		{"go test ./... && go vet ./...", "bash: go test * | bash: go vet *"},
		{"go test ./a && go test ./b | cat -n", "bash: go test * | bash: cat *"},
		{"go test $(go list ./...)", "bash: go test * | bash: go list *"},
		{"'my prog' 'an arg'", "bash: 'my prog' *"},
		{"'my prog' run", "bash: 'my prog' run *"},
		{"cat notes.txt", "bash: cat *"},
		{"python3 -m pytest", "bash: python3 *"},
		{"ls /tmp", "bash: ls *"},
		{"make build-all", "bash: make build-all *"},
		{"git x=1", "bash: git *"},
		{"echo done", "bash: echo done *"},
		{"go test ./... 2>&1", "bash: go test *"},
		{"echo '*' x", "bash: echo *"},
		// Nothing: the rules would not cover the command.
		{"go test > out.txt", ""},
		{"X=1 go test", ""},
		{"$GO test", ""},
		{"export X=1", ""},
		{"go test 'unterminated", ""},
		{"", ""},
		{"[[ -f x ]]", ""},
	} {
		rs, ok := Prefixes(tt.command)
		var got []string
		for _, r := range rs {
			got = append(got, r.String())
		}
		if s := strings.Join(got, " | "); s != tt.want || ok != (tt.want != "") {
			t.Errorf("Prefixes(%q) = %q, %v; want %q", tt.command, s, ok, tt.want)
		}
	}
}
