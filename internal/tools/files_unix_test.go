//go:build unix

package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/mustend"
)

// specialFiles makes a named pipe, a link to it and a sparse file of 40 MiB
// in dir.
func specialFiles(t *testing.T, dir string) {
	t.Helper()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("pipe", filepath.Join(dir, "pipe-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.log"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, "big.log"), 40<<20); err != nil {
		t.Fatal(err)
	}
}

// TestFilesNotRegular: read_file and edit_file refuse a named pipe or a
// device at once, and edit_file a file over its limit, without reading it.
func TestFilesNotRegular(t *testing.T) {
	dir := t.TempDir()
	specialFiles(t, dir)
	env := Env{Cwd: dir}
	const edit = `, "old_string": "a", "new_string": "b"}`
	tests := []struct {
		tool  Tool
		input string
		want  string
	}{
		{readFileTool{}, `{"path": "pipe"}`, "read_file: pipe is a named pipe, not a regular file"},
		{readFileTool{}, `{"path": "pipe-link"}`, "read_file: pipe-link is a named pipe, not a regular file"},
		{readFileTool{}, `{"path": "/dev/zero"}`, "read_file: /dev/zero is a device, not a regular file"},
		{editFileTool{}, `{"path": "pipe"` + edit, "edit_file: pipe is a named pipe, not a regular file"},
		{editFileTool{}, `{"path": "/dev/zero"` + edit, "edit_file: /dev/zero is a device, not a regular file"},
		{editFileTool{}, `{"path": "big.log"` + edit,
			"edit_file: big.log is 40 MiB, over mm's limit of 32 MiB for edit_file; change it with bash (sed, patch)"},
		{writeFileTool{}, `{"path": "pipe", "content": "x"}`, "write_file: pipe is a named pipe, not a regular file"},
	}
	for _, tt := range tests {
		var res Result
		mustend.Within(t, time.Minute, tt.input, func() { res = runTool(t, tt.tool, env, tt.input) })
		if res.Output != tt.want || !res.IsError {
			t.Errorf("%s:\n got %q (IsError %v)\nwant %q", tt.input, res.Output, res.IsError, tt.want)
		}
	}
}

// TestWriteFileKeepsTheFile: a replaced file keeps its mode and its owner;
// one with several names (hard links) is written in place, so that every
// name sees the new content.
func TestWriteFileKeepsTheFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"mode.txt": "old", "linked.txt": "old", "owned.txt": "old"})
	if err := os.Chmod(filepath.Join(dir, "mode.txt"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(dir, "linked.txt"), filepath.Join(dir, "other-name.txt")); err != nil {
		t.Fatal(err)
	}
	chowned := os.Chown(filepath.Join(dir, "owned.txt"), 65534, 65534) == nil
	before := inode(t, filepath.Join(dir, "linked.txt"))

	for _, name := range []string{"mode.txt", "linked.txt", "owned.txt"} {
		res := runTool(t, writeFileTool{}, Env{Cwd: dir}, fmt.Sprintf(`{"path": %q, "content": "new"}`, name))
		if want := "overwrote " + name + " (3 bytes)"; res.Output != want {
			t.Errorf("got %q, want %q", res.Output, want)
		}
	}
	for _, name := range []string{"mode.txt", "linked.txt", "other-name.txt", "owned.txt"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); string(b) != "new" {
			t.Errorf("%s holds %q (%v), want new", name, b, err)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "mode.txt")); err != nil || fi.Mode() != 0o640 {
		t.Errorf("mode.txt: mode %v (%v), want -rw-r-----", fi.Mode(), err)
	}
	if after := inode(t, filepath.Join(dir, "linked.txt")); after != before {
		t.Errorf("linked.txt was replaced (inode %d, was %d), not written in place", after, before)
	}
	if chowned {
		if st := statT(t, filepath.Join(dir, "owned.txt")); st.Uid != 65534 || st.Gid != 65534 {
			t.Errorf("owned.txt now belongs to %d:%d, want 65534:65534", st.Uid, st.Gid)
		}
	}
	noTempFiles(t, dir)
}

func statT(t *testing.T, p string) *syscall.Stat_t {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t)
}

func inode(t *testing.T, p string) uint64 { return uint64(statT(t, p).Ino) }

// nobody is the user the tests run a child as when they run as root.
const nobody = 65534

// TestWriteAsAnotherUser: run as a user who may not write a file (its mode
// is 0444) in a folder they may write, write_file and edit_file refuse it,
// as the shell does, rather than replace it; a file of another owner they
// may write (through its group) is written and keeps its owner. The tools
// run in a child process as user 65534: root may write any file.
func TestWriteAsAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run a child as another user")
	}
	// The child's binary and files, where user 65534 may reach them.
	base, err := os.MkdirTemp("", "mm-tools-user-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	bin := filepath.Join(base, "tools.test")
	if err := copyFile(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "work")
	files := []struct {
		name       string
		mode       os.FileMode
		uid, gid   int
		wantOutput string // the tool's output when written
	}{
		{"readonly.txt", 0o444, nobody, nobody, ""},
		{"roots.txt", 0o444, 0, 0, ""},
		{"shared.txt", 0o664, 0, nobody, "overwrote shared.txt (3 bytes)"},
		{"own.txt", 0o640, nobody, nobody, "overwrote own.txt (3 bytes)"},
		// In a folder of root's: the file may be written, not replaced.
		{"locked/mine.txt", 0o644, nobody, nobody, "overwrote locked/mine.txt (3 bytes)"},
	}
	if err := os.MkdirAll(filepath.Join(dir, "locked"), 0o755); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.name)
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(p, f.uid, f.gid); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, f.mode); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{base, dir} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chown(dir, nobody, nobody); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), childEnv+"=write", "MM_TOOLS_TEST_DIR="+dir, "MM_TOOLS_TEST_FILES="+strings.Join(names, " "))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var got map[string]Result
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("child's output %q: %v", out, err)
	}

	for _, f := range files {
		p := filepath.Join(dir, f.name)
		shell := exec.Command("sh", "-c", "cat /dev/null >> "+p)
		shell.SysProcAttr = cmd.SysProcAttr
		shellMay := shell.Run() == nil
		write, edit := got["write_file "+f.name], got["edit_file "+f.name]
		if f.wantOutput == "" {
			want := "write_file: permission denied: " + f.name
			if write.Output != want || !write.IsError {
				t.Errorf("write_file %s: got %q, want %q", f.name, write.Output, want)
			}
			want = "edit_file: permission denied: " + f.name
			if edit.Output != want || !edit.IsError {
				t.Errorf("edit_file %s: got %q, want %q", f.name, edit.Output, want)
			}
			if shellMay {
				t.Errorf("%s: the shell may write it, the tools may not", f.name)
			}
			if b, _ := os.ReadFile(p); string(b) != "old" {
				t.Errorf("%s holds %q, want it untouched", f.name, b)
			}
		} else {
			if write.Output != f.wantOutput || write.IsError {
				t.Errorf("write_file %s: got %q, want %q", f.name, write.Output, f.wantOutput)
			}
			if !shellMay {
				t.Errorf("%s: the tools may write it, the shell may not", f.name)
			}
			if b, _ := os.ReadFile(p); string(b) != "new" {
				t.Errorf("%s holds %q, want new", f.name, b)
			}
		}
		st := statT(t, p)
		if int(st.Uid) != f.uid || int(st.Gid) != f.gid || os.FileMode(st.Mode)&os.ModePerm != f.mode {
			t.Errorf("%s: %d:%d %v, want %d:%d %v", f.name, st.Uid, st.Gid, os.FileMode(st.Mode)&os.ModePerm, f.uid, f.gid, f.mode)
		}
	}
	noTempFiles(t, dir)
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// childMain does what a test asked of this process (see childEnv):
//
//	write:      edits and writes each file of $MM_TOOLS_TEST_FILES in
//	            $MM_TOOLS_TEST_DIR, and prints the results as JSON
//	            ("write_file <name>" → Result)
//	kill:       starts writing 1 MiB to $MM_TOOLS_TEST_PATH, prints
//	            "writing" and waits to be killed
//	kill-named: the same, through a named temporary file (where there is
//	            no O_TMPFILE)
func childMain(mode string) int {
	switch mode {
	case "kill", "kill-named":
		fill := func(w io.Writer) error {
			if _, err := w.Write(make([]byte, 1<<20)); err != nil {
				return err
			}
			fmt.Println("writing")
			select {}
		}
		path := os.Getenv("MM_TOOLS_TEST_PATH")
		var err error
		if mode == "kill" {
			err = writeFile(path, 0o644, fill)
		} else {
			err = replaceVia(createNamed, path, nil, 0o644, fill)
		}
		fmt.Fprintln(os.Stderr, err)
		return 1
	case "write":
		res := map[string]Result{}
		env := Env{Cwd: os.Getenv("MM_TOOLS_TEST_DIR")}
		for _, name := range strings.Fields(os.Getenv("MM_TOOLS_TEST_FILES")) {
			res["edit_file "+name] = editFileTool{}.Run(context.Background(), env, json.RawMessage(fmt.Sprintf(`{"path": %q, "old_string": "old", "new_string": "new"}`, name)))
			// edit_file changed it, or must have left it: write it again.
			res["write_file "+name] = writeFileTool{}.Run(context.Background(), env, json.RawMessage(fmt.Sprintf(`{"path": %q, "content": "new"}`, name)))
		}
		json.NewEncoder(os.Stdout).Encode(res)
		return 0
	}
	fmt.Fprintf(os.Stderr, "unknown child mode %q\n", mode)
	return 2
}

// TestWriteKilledMidway: a write killed (SIGKILL) while it writes leaves
// the file as it was and, on Linux, no temporary file at all; where a named
// temporary file is left, the next write in its folder removes it once it
// is stale.
func TestWriteKilledMidway(t *testing.T) {
	for _, mode := range []string{"kill", "kill-named"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"f.txt": "old"})
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), childEnv+"="+mode, "MM_TOOLS_TEST_PATH="+filepath.Join(dir, "f.txt"))
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line := make([]byte, len("writing\n"))
			if _, err := io.ReadFull(out, line); err != nil || string(line) != "writing\n" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("child said %q (%v)", line, err)
			}
			cmd.Process.Kill()
			cmd.Wait()
			if b, err := os.ReadFile(filepath.Join(dir, "f.txt")); string(b) != "old" {
				t.Errorf("f.txt holds %d bytes (%v), want old", len(b), err)
			}
			names := dirNames(t, dir)
			if mode == "kill" && runtime.GOOS == "linux" {
				if len(names) != 1 {
					t.Errorf("left in the folder: %v, want only f.txt", names)
				}
				return
			}
			// Stale: the next write removes it.
			if len(names) != 2 || !isTempName(names[0]) {
				t.Fatalf("left in the folder: %v, want f.txt and a temporary file", names)
			}
			stale := time.Now().Add(-staleTempAge - time.Minute)
			if err := os.Chtimes(filepath.Join(dir, names[0]), stale, stale); err != nil {
				t.Fatal(err)
			}
			if res := runTool(t, writeFileTool{}, Env{Cwd: dir}, `{"path": "g.txt", "content": "g"}`); res.IsError {
				t.Fatal(res.Output)
			}
			if names := dirNames(t, dir); strings.Join(names, " ") != "f.txt g.txt" {
				t.Errorf("left in the folder: %v, want f.txt g.txt", names)
			}
		})
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestRemoveStaleTemps: only mm's temporary files, and only stale ones,
// are removed.
func TestRemoveStaleTemps(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	old, young := now.Add(-staleTempAge-time.Second), now.Add(-staleTempAge+time.Minute)
	files := []struct {
		name    string
		mtime   time.Time
		removed bool
	}{
		{".f.txt.mm-tmp-123", old, true},
		{".f.txt.mm-tmp-456", young, false},
		{".f.txt.mm-tmp-12ab", old, false},
		{".f.txt.mm-tmp-", old, false},
		{"f.txt.mm-tmp-1", old, false},
		{".f.txt.mm-1.tmp", old, false},
		{"f.txt", old, false},
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, f.mtime, f.mtime); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".d.mm-tmp-1"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(filepath.Join(dir, ".d.mm-tmp-1"), old, old)
	removeStaleTemps(dir, now)
	for _, f := range files {
		_, err := os.Lstat(filepath.Join(dir, f.name))
		if gone := err != nil; gone != f.removed {
			t.Errorf("%s: removed %v, want %v", f.name, gone, f.removed)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, ".d.mm-tmp-1")); err != nil {
		t.Errorf("the folder .d.mm-tmp-1 was removed")
	}
}
