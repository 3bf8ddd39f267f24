package strictyaml

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the want files of testdata/syntax/*.txtar")

// TestSyntaxExcerpts: each testdata/syntax/*.txtar is a file (f.yaml) with
// a syntax error and what mm shows of it (want): its line, then the source
// line, the caret and the hint.
func TestSyntaxExcerpts(t *testing.T) {
	files, err := filepath.Glob("testdata/syntax/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/syntax/*.txtar (%v)", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			in, want := section(t, ar, "f.yaml"), section(t, ar, "want")
			n, err := Parse(in)
			if err == nil || n != nil {
				t.Fatalf("Parse accepted the file")
			}
			got := Located("f.yaml", err) + "\n"
			if ex := Excerpt(err); ex != "" {
				got += ex + "\n"
			}
			if *update {
				for i := range ar.Files {
					if ar.Files[i].Name == "want" {
						ar.Files[i].Data = []byte(got)
					}
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func section(t *testing.T, ar *txtar.Archive, name string) []byte {
	t.Helper()
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	t.Fatalf("no %s in the archive", name)
	return nil
}

// TestControlCharacters: yaml.v3 refuses a control character without
// saying where; the error is at it, the excerpt shows it escaped as
// frontend.Visible does, and the message holds none.
func TestControlCharacters(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"in a value", "a: \x01b\n", "f.yaml:1:4: control characters are not allowed\n" +
			"  1 | a: \\x01b\n" +
			"    |    ^\n" +
			"  hint: remove the control character \\x01: YAML allows none but tab and line breaks"},
		{"an escape sequence", "a: b\n\x1b[2Kc: d\n", "f.yaml:2:1: control characters are not allowed\n" +
			"  2 | \\x1b[2Kc: d\n" +
			"    | ^\n" +
			"  hint: remove the control character \\x1b: YAML allows none but tab and line breaks"},
		{"after a wide letter", "a: 日\x7f\n", "f.yaml:1:5: control characters are not allowed\n" +
			"  1 | a: 日\\x7f\n" +
			"    |      ^\n" +
			"  hint: remove the control character \\x7f: YAML allows none but tab and line breaks"},
		{"on a line indented with a tab", "a:\n\tb: \x01\n", "f.yaml:2:5: control characters are not allowed\n" +
			"  2 | →b: \\x01\n" +
			"    |     ^\n" +
			"  hint: remove the control character \\x01: YAML allows none but tab and line breaks"},
		{"a C1 control", "a: b\u0090\n", "f.yaml:1:5: control characters are not allowed\n" +
			"  1 | a: b\\u0090\n" +
			"    |     ^\n" +
			"  hint: remove the control character \\u0090: YAML allows none but tab and line breaks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			if err == nil {
				t.Fatal("Parse accepted the file")
			}
			if got := Located("f.yaml", err) + "\n" + Excerpt(err); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestShowLine: a source line as an excerpt shows it, and where the caret
// goes under it, in cells.
func TestShowLine(t *testing.T) {
	long := strings.Repeat("a", 150) + "X" + strings.Repeat("b", 150)
	tests := []struct {
		name, src string
		col       int
		shown     string
		caret     int
	}{
		{"plain", "model: x", 8, "model: x", 7},
		{"a tab is one arrow", "\t\tkey: x", 3, "→→key: x", 2},
		{"wide letters take two cells", "名前: x y: z", 5, "名前: x y: z", 6},
		{"an escape is as wide as it is written", "a\x1bb", 3, `a\x1bb`, 5},
		{"bidi override", "a\u202eb", 3, `a\u202eb`, 7},
		{"not UTF-8", "a\xffb", 3, `a\xffb`, 5},
		{"past the end", "ab", 3, "ab", 2},
		{"no column", "ab", 0, "ab", 0},
		{"cut at both ends", long, 151, "…" + strings.Repeat("a", 50) + "X" + strings.Repeat("b", 49) + "…", 51},
		{"cut at the end", long, 1, strings.Repeat("a", 100) + "…", 0},
		{"cut at the start", long, 301, "…" + strings.Repeat("b", 100), 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shown, caret := showLine(tt.src, tt.col)
			if shown != tt.shown || caret != tt.caret {
				t.Errorf("showLine(%q, %d) = %q, %d; want %q, %d", tt.src, tt.col, shown, caret, tt.shown, tt.caret)
			}
		})
	}
}

// TestOneLine: a parser's message holds no raw tab, line break or control
// character.
func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"found character '\t' that cannot start any token": "found a tab character that cannot start any token",
		"found character '\x01'":                           `found character '\x01'`,
		"two\nlines\tand a tab":                            `two\nlines\tand a tab`,
		"sequence end token ']' not found":                 "sequence end token ']' not found",
	} {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestExcerptLoneCR: a file whose lines end in "\r" alone, which YAML
// counts as line breaks, shows its excerpt at the line the parsers name
// (found by FuzzParse: the excerpt counted "\n" only, and showed nothing).
func TestExcerptLoneCR(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"model: echo\rhooks:\r  preToolCall:\r    - command: echo a: b\r",
			"f.yaml:4:16: mapping value is not allowed in this context\n" +
				"  4 |     - command: echo a: b\n" +
				"    |                ^\n" +
				"  hint: a \": \" in a plain value starts a key; quote the value:\n" +
				"  4 |     - command: \"echo a: b\""},
		{"*\r \r\"",
			"f.yaml:3:1: could not find end character of double-quoted text\n" +
				"  3 | \"\n" +
				"    | ^\n" +
				"  hint: the quote (\") opened at 3:1 is never closed: end the value with \""},
	} {
		_, err := Parse([]byte(tc.in))
		if got := Located("f.yaml", err) + "\n" + Excerpt(err); got != tc.want {
			t.Errorf("%q:\n%s\nwant\n%s", tc.in, got, tc.want)
		}
	}
}
