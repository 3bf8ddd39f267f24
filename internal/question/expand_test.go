package question

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mm-agent/mm/internal/skills"
)

// tree writes files (a name ending in / is a folder) under a new folder.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestExpand(t *testing.T) {
	dir := tree(t, map[string]string{
		"notes.md":            "line one\nline two\n",
		"my notes.md":         "spaced",
		"ticks.md":            "before\n````\ninside\n````\n",
		"empty.txt":           "",
		"src/a.go":            "package a\n",
		"src/sub/":            "",
		"home/h.txt":          "from home",
		"bin.dat":             "ab\x00cd",
		"latin1.txt":          "caf\xe9",
		"skills/pdf/SKILL.md": "---\nname: pdf\ndescription: Read PDFs.\n---\nUse pdftotext.\n",
	})
	set, problems := skills.Find([]skills.Folder{{Dir: filepath.Join(dir, "skills"), Given: true}}, func(p string) string { return p })
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	show := func(p string) string { rel, _ := filepath.Rel(dir, p); return rel }
	opts := Options{Cwd: dir, Home: filepath.Join(dir, "home"), Skills: set, Show: show}
	tests := []struct {
		name, in, want string
	}{
		{"no line", "what is 2+2? $5 @ noon", "what is 2+2? $5 @ noon"},
		{"a file", "read this\n@notes.md\nthen answer", "read this\n[file: notes.md]\n```\nline one\nline two\n```\nthen answer"},
		{"quoted path", `@"my notes.md"`, "[file: my notes.md]\n```\nspaced\n```"},
		{"home", "@~/h.txt", "[file: ~/h.txt]\n```\nfrom home\n```"},
		{"trailing space", "@notes.md  \r", "[file: notes.md]\n```\nline one\nline two\n```"},
		{"a fence the content cannot close", "@ticks.md", "[file: ticks.md]\n`````\nbefore\n````\ninside\n````\n`````"},
		{"an empty file", "@empty.txt", "[file: empty.txt]\n```\n```"},
		{"a folder", "@src", "[folder: src, 2 entries]\n```\na.go\nsub/\n```"},
		{"more words: the line stays, what exists follows", "@bob, look at this\n@notes.md please", "@bob, look at this\n@notes.md please\n\n[file: notes.md]\n```\nline one\nline two\n```"},
		{"indented: inside a sentence", " @notes.md", " @notes.md\n\n[file: notes.md]\n```\nline one\nline two\n```"},
		{"inside a fence is text", "```python\n@dataclass\n```\n~~~\n$pdf\n~~~", "```python\n@dataclass\n```\n~~~\n$pdf\n~~~"},
		{"a skill", "$pdf\nsummarise report.pdf", "[skill pdf, from skills/pdf/SKILL.md: follow its instructions; its other files are in skills/pdf]\n---\nname: pdf\ndescription: Read PDFs.\n---\nUse pdftotext.\n[end of skill pdf]\nsummarise report.pdf"},
		{"not a skill name", "$HOME\n$a_b", "$HOME\n$a_b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, changed, err := Expand(tt.in, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Expand\n got: %q\nwant: %q", got, tt.want)
			}
			if changed != (got != tt.in) {
				t.Errorf("changed = %v", changed)
			}
		})
	}
}

func TestExpandErrors(t *testing.T) {
	dir := tree(t, map[string]string{
		"bin.dat":    "ab\x00cd",
		"latin1.txt": "caf\xe9",
		"ok.txt":     "fine",
	})
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	two, _ := skills.Find(nil, nil)
	tests := []struct {
		name, in, want string
	}{
		{"missing", "@ok.txt\n@nope.txt", "@nope.txt: no such file or folder (a path is relative to the working directory; a line that is @<path> reads one — put the line in a ``` fence to send it as typed)"},
		{"named pipe", "@fifo", "@fifo: a named pipe, not a file mm reads: give a regular file or a folder"},
		{"binary", "@bin.dat", "@bin.dat: a binary file (a NUL byte at offset 2): mm brings in text files only (a tool may read it)"},
		{"not utf-8", "@latin1.txt", "@latin1.txt: not UTF-8 text: mm brings in text files only (a tool may read it)"},
		{"no skills", "$pdf", "$pdf: no such skill: there are none (a skill is a folder holding a SKILL.md, in .mm/skills/, ~/.config/mm/skills/ or a skills: folder of the configuration)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := Expand(tt.in, Options{Cwd: dir, Skills: two})
			if err == nil || err.Error() != tt.want {
				t.Errorf("Expand(%q) = %q, %v\nwant error: %s", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestExpandUnknownSkill(t *testing.T) {
	dir := tree(t, map[string]string{
		"s/pdf/SKILL.md":  "---\nname: pdf\ndescription: d\n---\n",
		"s/docx/SKILL.md": "---\nname: docx\ndescription: d\n---\n",
	})
	set, _ := skills.Find([]skills.Folder{{Dir: filepath.Join(dir, "s")}}, nil)
	_, _, err := Expand("$xlsx", Options{Cwd: dir, Skills: set})
	if want := "$xlsx: no such skill (known: docx, pdf)"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestExpandCut(t *testing.T) {
	line := strings.Repeat("x", 99) + "\n"
	big := strings.Repeat(line, MaxFileBytes/len(line)+10) // just over the limit
	dir := tree(t, map[string]string{"big.log": big, "one.line": strings.Repeat("é", MaxFileBytes)})
	got, _, err := Expand("@big.log", Options{Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	kept := MaxFileBytes / len(line) * len(line) // whole lines only
	want := "[file: big.log]\n```\n" + strings.TrimSuffix(big[:kept], "\n") + "\n```\n" +
		"[big.log was cut: the first 64.0 KiB of 64.9 KiB are above, the rest is left out (mm's limit for an @path file); read it with a tool]"
	if got != want {
		t.Errorf("cut file: got …%q\nwant …%q", got[len(got)-200:], want[len(want)-200:])
	}
	// One line with no break: cut at a character, never inside one.
	got, _, err = Expand("@one.line", Options{Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "\n[one.line was cut: the first 64 KiB of 128 KiB are above") {
		t.Errorf("one long line: %q", got[len(got)-200:])
	}
}

func TestExpandListingCap(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < MaxEntries+5; i++ {
		if err := os.WriteFile(filepath.Join(dir, strings.Repeat("f", 1)+string(rune('a'+i%26))+itoa(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, _, err := Expand("@.", Options{Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "[folder: ., 1005 entries]\n```\n") || !strings.HasSuffix(got, "\n```\n[.: the first 1000 entries are above, 5 more are left out (mm's limit for a folder's listing)]") {
		t.Errorf("listing: %q … %q", got[:40], got[len(got)-120:])
	}
	if n := strings.Count(got, "\n"); n != 1+1+MaxEntries+1 {
		t.Errorf("listing has %d lines", n)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}

func TestPathLine(t *testing.T) {
	tests := []struct {
		line, path string
		ok         bool
	}{
		{"@a.go", "a.go", true},
		{"@src/", "src/", true},
		{`@"a b.go"`, "a b.go", true},
		{`@""`, "", false},
		{"@", "", false},
		{"@a b", "", false},
		{`@"a"b"`, "", false},
		{"a@b", "", false},
	}
	for _, tt := range tests {
		p, ok := PathLine(tt.line)
		if p != tt.path || ok != tt.ok {
			t.Errorf("PathLine(%q) = %q, %v; want %q, %v", tt.line, p, ok, tt.path, tt.ok)
		}
	}
}
