package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestChangedSinceShown: what was shown is what is written. A file that
// changed (or came to be) between the plan that showed the change and the
// run is left as it is, and the call says why.
func TestChangedSinceShown(t *testing.T) {
	big := string(make([]byte, writeCompareMax+1))
	tests := []struct {
		name, tool, input string
		before            map[string]string // the files when the call is planned
		meanwhile         func(dir string) error
		want              string
		file              string // f.txt's content after the run
	}{
		{"edit_file, file changed", "edit_file", `{"path":"f.txt","old_string":"a","new_string":"b"}`,
			map[string]string{"f.txt": "a\n"}, write("f.txt", "a\nsecond writer\n"),
			"edit_file: f.txt changed after its change was shown for approval; nothing was written: read it again and redo the change", "a\nsecond writer\n"},
		{"write_file, file changed", "write_file", `{"path":"f.txt","content":"new"}`,
			map[string]string{"f.txt": "old"}, write("f.txt", "other"),
			"write_file: f.txt changed after its change was shown for approval; nothing was written: read it again and redo the change", "other"},
		{"write_file, file came to be", "write_file", `{"path":"f.txt","content":"new"}`,
			nil, write("f.txt", "other"),
			"write_file: f.txt changed after its change was shown for approval; nothing was written: read it again and redo the change", "other"},
		{"write_file, a large file changed", "write_file", `{"path":"f.txt","content":"new"}`,
			map[string]string{"f.txt": big}, write("f.txt", big+"x"),
			"write_file: f.txt changed after its change was shown for approval; nothing was written: read it again and redo the change", big + "x"},
		{"write_file, unchanged", "write_file", `{"path":"f.txt","content":"new"}`,
			map[string]string{"f.txt": "old"}, func(string) error { return nil },
			"overwrote f.txt (3 bytes)", "new"},
		{"edit_file, unchanged", "edit_file", `{"path":"f.txt","old_string":"a","new_string":"b"}`,
			map[string]string{"f.txt": "a\n"}, func(string) error { return nil },
			"replaced 1 occurrence in f.txt", "b\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.before)
			tool, _ := Builtin(tt.tool)
			c, err := PlanCall(tool, Env{Cwd: dir}, json.RawMessage(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.meanwhile(dir); err != nil {
				t.Fatal(err)
			}
			if got := c.Run(context.Background()); got.Output != tt.want {
				t.Errorf("output %q, want %q", got.Output, tt.want)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "f.txt")); string(b) != tt.file {
				t.Errorf("f.txt holds %.40q, want %.40q", b, tt.file)
			}
		})
	}
}

// write is a change made to a file by someone else.
func write(name, content string) func(dir string) error {
	return func(dir string) error { return os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644) }
}

// TestPlanShowsWhatRuns: each built-in tool's plan names what its run acts
// on, from the same reading of the input as its tool lines (Target), and
// file tools carry the change they make.
func TestPlanShowsWhatRuns(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"f.txt": "one\ntwo\n"})
	tests := []struct {
		tool, input     string
		subject, path   string
		old, new        string
		created, change bool
	}{
		{tool: "bash", input: `{"path":"decoy","command":"echo hi"}`, subject: "echo hi"},
		{tool: "read_file", input: `{"command":"decoy","path":"f.txt"}`, subject: "f.txt", path: filepath.Join(dir, "f.txt")},
		{tool: "read_file", input: `{"path":"../elsewhere/x"}`, subject: filepath.Join(filepath.Dir(dir), "elsewhere/x"), path: filepath.Join(filepath.Dir(dir), "elsewhere/x")},
		{tool: "write_file", input: `{"command":"decoy","path":"n.txt","content":"hi\n"}`, subject: "n.txt", path: filepath.Join(dir, "n.txt"),
			change: true, created: true, new: "hi\n"},
		{tool: "edit_file", input: `{"path":"f.txt","old_string":"two","new_string":"2"}`, subject: "f.txt", path: filepath.Join(dir, "f.txt"),
			change: true, old: "one\ntwo\n", new: "one\n2\n"},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.input, func(t *testing.T) {
			tool, _ := Builtin(tt.tool)
			env := Env{Cwd: dir}
			c, err := PlanCall(tool, env, json.RawMessage(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			if c.Subject != tt.subject || c.Path != tt.path {
				t.Errorf("plan's subject %q, path %q; want %q, %q", c.Subject, c.Path, tt.subject, tt.path)
			}
			if tg := TargetOf(tool, env, json.RawMessage(tt.input)); tg != c.Target {
				t.Errorf("TargetOf = %+v, plan's %+v", tg, c.Target)
			}
			if (c.Change != nil) != tt.change {
				t.Fatalf("change %+v, want one: %v", c.Change, tt.change)
			}
			if c.Change != nil && (c.Change.Created != tt.created || c.Change.Old != tt.old || c.Change.New != tt.new || c.Change.Path != tt.path) {
				t.Errorf("change %+v", c.Change)
			}
		})
	}
}

// TestPlanRefusesCaseTwins: a property named like a parameter but for case
// is a bad call, whichever comes first.
func TestPlanRefusesCaseTwins(t *testing.T) {
	for _, input := range []string{`{"path":"a","PATH":"b"}`, `{"PATH":"b","path":"a"}`, `{"Path":"b"}`} {
		tool, _ := Builtin("read_file")
		_, err := PlanCall(tool, Env{Cwd: t.TempDir()}, json.RawMessage(input))
		want := `read_file: invalid input: "` + map[bool]string{true: "Path", false: "PATH"}[input == `{"Path":"b"}`] +
			`" is not a parameter (the parameter is "path"): send each parameter once, spelt as the schema spells it`
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", input, err, want)
		}
	}
}
