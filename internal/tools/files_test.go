package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles creates files (name → content) under dir; a name ending in /
// is a folder.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
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
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// numbered returns lines from to to, each "line N" and a newline.
func numbered(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// noTempFiles fails the test when a temporary file of writeAtomic is left in dir.
func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".mm-") {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	wide := strings.Repeat("w", 200000) + "\n"
	hundred := strings.Repeat(strings.Repeat("x", 99)+"\n", 2000) // 200 KB in lines of 100 bytes
	writeFiles(t, dir, map[string]string{
		"a.txt":       "one\ntwo\nthree\n",
		"noeol.txt":   "x\ny",
		"empty.txt":   "",
		"bin.dat":     "PNG\x00\x01\x02",
		"big.txt":     numbered(1, 2500),
		"hundred.txt": hundred,
		"wide.txt":    wide + "after\n",
		"crlf.txt":    "a\r\nb\r\n",
		"latin1.txt":  "caf\xe9\n",
		"dir/":        "",
	})
	env := Env{Cwd: dir}
	tests := []struct {
		name    string
		input   string
		want    string
		wantErr bool
	}{
		{"whole file", `{"path": "a.txt"}`, "one\ntwo\nthree\n", false},
		{"absolute path", fmt.Sprintf(`{"path": %q}`, filepath.Join(dir, "a.txt")), "one\ntwo\nthree\n", false},
		{"no newline at the end", `{"path": "noeol.txt"}`, "x\ny", false},
		{"from an offset to the end", `{"path": "a.txt", "offset": 2}`, "two\nthree\n[lines 2-3 of 3 shown (the end of the file)]", false},
		{"offset and limit", `{"path": "a.txt", "offset": 2, "limit": 1}`, "two\n[line 2 of 3 shown; read on with offset 3]", false},
		{"limit", `{"path": "a.txt", "limit": 2}`, "one\ntwo\n[lines 1-2 of 3 shown; read on with offset 3]", false},
		{"last line without newline", `{"path": "noeol.txt", "offset": 2}`, "y\n[line 2 of 2 shown (the end of the file)]", false},
		{"offset past the end", `{"path": "a.txt", "offset": 4}`, "read_file: offset 4 is past the end of a.txt (3 lines)", true},
		{"line cap", `{"path": "big.txt"}`, numbered(1, 2000) + "[lines 1-2000 of 2500 shown; read on with offset 2001]", false},
		{"limit above the cap", `{"path": "big.txt", "limit": 5000}`, numbered(1, 2000) + "[lines 1-2000 of 2500 shown; read on with offset 2001]", false},
		{"reading on", `{"path": "big.txt", "offset": 2001}`, numbered(2001, 2500) + "[lines 2001-2500 of 2500 shown (the end of the file)]", false},
		{"byte cap", `{"path": "hundred.txt"}`, hundred[:102400] + "[lines 1-1024 of 2000 shown; read on with offset 1025]", false},
		{"a line over the byte cap", `{"path": "wide.txt"}`,
			wide[:102400] + "\n[line 1 is 200001 bytes long: only its first 102400 are shown; line 1 of 2 shown; read on with offset 2]", false},
		{"CRLF kept", `{"path": "crlf.txt"}`, "a\r\nb\r\n", false},
		{"invalid UTF-8 made valid", `{"path": "latin1.txt"}`, "caf\uFFFD\n", false},
		{"empty file", `{"path": "empty.txt"}`, "[empty.txt is empty]", false},
		{"missing file", `{"path": "nope.txt"}`, "read_file: no such file: nope.txt", true},
		{"binary file", `{"path": "bin.dat"}`, "read_file: bin.dat is a binary file (6 bytes); it is not shown", true},
		{"device", `{"path": "/dev/null"}`, "read_file: /dev/null is a device, not a regular file", true},
		{"folder", `{"path": "dir"}`, "read_file: dir is a directory, not a file (list it with bash: ls)", true},
		{"missing path", `{}`, `read_file: invalid input: missing "path"`, true},
		{"blank path", `{"path": ""}`, `read_file: invalid input: "path" is empty`, true},
		{"fractional offset", `{"path": "a.txt", "offset": 1.5}`, `read_file: invalid input: "offset" and "limit" must be whole numbers from 1`, true},
		{"negative limit", `{"path": "a.txt", "limit": -1}`, `read_file: invalid input: "offset" and "limit" must be whole numbers from 1`, true},
		{"huge offset", `{"path": "a.txt", "offset": 1e300}`, "read_file: offset 9007199254740992 is past the end of a.txt (3 lines)", true},
		{"offset as a string", `{"path": "a.txt", "offset": "3"}`, "three\n[line 3 of 3 shown (the end of the file)]", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runTool(t, readFileTool{}, env, tt.input)
			if res.Output != tt.want || res.IsError != tt.wantErr {
				g, w := res.Output, tt.want
				if len(g) > 300 || len(w) > 300 {
					g, w = "…"+g[max(0, len(g)-300):], "…"+w[max(0, len(w)-300):]
				}
				t.Errorf("got  %q (IsError %v)\nwant %q (IsError %v)", g, res.IsError, w, tt.wantErr)
			}
		})
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"old.txt": "old", "secret.txt": "old", "f.txt": "", "dir/": ""})
	if err := os.Chmod(filepath.Join(dir, "secret.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "target.txt"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target.txt", filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	env := Env{Cwd: dir}
	tests := []struct {
		name    string
		input   string
		want    string
		wantErr bool
		file    string // a file to check afterwards
		content string
		mode    os.FileMode
	}{
		{"create", `{"path": "new.txt", "content": "hello"}`, "created new.txt (5 bytes)", false, "new.txt", "hello", 0o644},
		{"create with folders", `{"path": "a/b/c.txt", "content": "x"}`, "created a/b/c.txt (1 byte)", false, "a/b/c.txt", "x", 0o644},
		{"overwrite", `{"path": "old.txt", "content": "new"}`, "overwrote old.txt (3 bytes)", false, "old.txt", "new", 0o644},
		{"keep permissions", `{"path": "secret.txt", "content": "new"}`, "overwrote secret.txt (3 bytes)", false, "secret.txt", "new", 0o600},
		{"empty content", `{"path": "empty.txt", "content": ""}`, "created empty.txt (0 bytes)", false, "empty.txt", "", 0o644},
		{"through a link", `{"path": "link.txt", "content": "new"}`, "overwrote link.txt (3 bytes)", false, "target.txt", "new", 0o644},
		{"under a file", `{"path": "f.txt/x", "content": "x"}`, "write_file: f.txt/x: not a directory", true, "", "", 0},
		{"onto a folder", `{"path": "dir", "content": "x"}`, "write_file: dir is a directory, not a regular file", true, "", "", 0},
		{"missing content", `{"path": "x.txt"}`, `write_file: invalid input: missing "content"`, true, "", "", 0},
		{"content not a string", `{"path": "x.txt", "content": 1}`, `write_file: invalid input: "content" must be a string, not a number`, true, "", "", 0},
		{"missing path", `{"content": "x"}`, `write_file: invalid input: missing "path"`, true, "", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runTool(t, writeFileTool{}, env, tt.input)
			if res.Output != tt.want || res.IsError != tt.wantErr {
				t.Errorf("got  %q (IsError %v)\nwant %q (IsError %v)", res.Output, res.IsError, tt.want, tt.wantErr)
			}
			if tt.file == "" {
				return
			}
			p := filepath.Join(dir, tt.file)
			data, err := os.ReadFile(p)
			if err != nil || string(data) != tt.content {
				t.Errorf("%s holds %q (%v), want %q", tt.file, data, err, tt.content)
			}
			if info, err := os.Stat(p); err != nil || info.Mode() != tt.mode {
				t.Errorf("%s has mode %v (%v), want %v", tt.file, info.Mode(), err, tt.mode)
			}
		})
	}
	if fi, err := os.Lstat(filepath.Join(dir, "link.txt")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.txt is no longer a symbolic link")
	}
	noTempFiles(t, dir)
}

func TestEditFile(t *testing.T) {
	tests := []struct {
		name    string
		file    string // content of f.txt before
		input   string // without the path
		want    string
		wantErr bool
		after   string // content of f.txt after
	}{
		{"unique", "a b c", `"old_string": "b", "new_string": "B"`, "replaced 1 occurrence in f.txt", false, "a B c"},
		{"delete", "a b c", `"old_string": " b", "new_string": ""`, "replaced 1 occurrence in f.txt", false, "a c"},
		{"multi-line", "func f() {\n\treturn 1\n}\n", `"old_string": "\treturn 1\n}", "new_string": "\treturn 2\n}"`,
			"replaced 1 occurrence in f.txt", false, "func f() {\n\treturn 2\n}\n"},
		{"replace all", "x x x", `"old_string": "x", "new_string": "y", "replace_all": true`, "replaced 3 occurrences in f.txt", false, "y y y"},
		{"replace all given as a string", "x x", `"old_string": "x", "new_string": "y", "replace_all": "true"`, "replaced 2 occurrences in f.txt", false, "y y"},
		{"replace all with one occurrence", "x", `"old_string": "x", "new_string": "y", "replace_all": true`, "replaced 1 occurrence in f.txt", false, "y"},
		{"CRLF file, LF old_string", "a\r\nb\r\nc\r\n", `"old_string": "a\nb", "new_string": "A\nB"`, "replaced 1 occurrence in f.txt", false, "A\r\nB\r\nc\r\n"},
		{"ambiguous", "x x x", `"old_string": "x", "new_string": "y"`,
			"edit_file: old_string occurs 3 times in f.txt; include more of the surrounding text to make it unique, or set replace_all to true to replace all 3", true, "x x x"},
		{"absent", "abc", `"old_string": "z", "new_string": "y"`,
			"edit_file: old_string was not found in f.txt; it must match the file exactly, spaces, indentation and line breaks included (read_file shows the file as it is)", true, "abc"},
		{"empty old_string", "abc", `"old_string": "", "new_string": "y"`,
			`edit_file: invalid input: "old_string" is empty; to create a file or replace it whole, use write_file`, true, "abc"},
		{"nothing to change", "abc", `"old_string": "a", "new_string": "a"`,
			`edit_file: invalid input: "old_string" and "new_string" are the same; there is nothing to change`, true, "abc"},
		{"missing new_string", "abc", `"old_string": "a"`, `edit_file: invalid input: missing "new_string"`, true, "abc"},
		{"replace_all not a boolean", "abc", `"old_string": "a", "new_string": "b", "replace_all": 1`,
			`edit_file: invalid input: "replace_all" must be true or false, not a number`, true, "abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f.txt")
			if err := os.WriteFile(p, []byte(tt.file), 0o755); err != nil {
				t.Fatal(err)
			}
			res := runTool(t, editFileTool{}, Env{Cwd: dir}, `{"path": "f.txt", `+tt.input+`}`)
			if res.Output != tt.want || res.IsError != tt.wantErr {
				t.Errorf("got  %q (IsError %v)\nwant %q (IsError %v)", res.Output, res.IsError, tt.want, tt.wantErr)
			}
			data, _ := os.ReadFile(p)
			if string(data) != tt.after {
				t.Errorf("f.txt holds %q, want %q", data, tt.after)
			}
			if info, err := os.Stat(p); err != nil || info.Mode() != 0o755 {
				t.Errorf("f.txt has mode %v (%v), want -rwxr-xr-x", info.Mode(), err)
			}
			noTempFiles(t, dir)
		})
	}
}

func TestEditFileMissing(t *testing.T) {
	res := runTool(t, editFileTool{}, Env{Cwd: t.TempDir()}, `{"path": "nope.txt", "old_string": "a", "new_string": "b"}`)
	if want := "edit_file: no such file: nope.txt"; res.Output != want || !res.IsError {
		t.Errorf("got %q (IsError %v), want %q", res.Output, res.IsError, want)
	}
}

func TestResolvePath(t *testing.T) {
	env := Env{Cwd: "/work", Environ: []string{"HOME=/home/me"}}
	tests := []struct{ in, want string }{
		{"a.txt", "/work/a.txt"},
		{"./sub/../b.txt", "/work/b.txt"},
		{"/etc/hosts", "/etc/hosts"},
		{"~/notes.md", "/home/me/notes.md"},
		{"~", "/home/me"},
		{"~other/x", "/work/~other/x"},
	}
	for _, tt := range tests {
		if got := resolvePath(env, tt.in); got != filepath.FromSlash(tt.want) {
			t.Errorf("resolvePath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
