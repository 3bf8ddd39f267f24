package wasm

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/mm-agent/mm/internal/hooks"
)

// TestSandbox runs the probe module as a hook, with a read folder ro and a
// write folder rw, and checks what it reports it could do — and, on the
// host, what it changed.
func TestSandbox(t *testing.T) {
	cwd := t.TempDir()
	writeFiles(t, cwd, map[string]string{
		"secret.txt":      "secret",
		"ro/data.txt":     "data",
		"ro/sub/deep.txt": "deep",
		"ro/inner-link":   "->sub/deep.txt",
		"ro/link-out":     "->../secret.txt",
		"ro/abs-link":     "->/etc/passwd",
		"ro/dir-out":      "->/etc",
		"rw":              "/",
	})
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(filepath.Join(cwd, "ro/data.txt"), old, old); err != nil {
		t.Fatal(err)
	}

	e := &hooks.Entry{Wasm: guest(t), Read: []string{"ro"}, Write: []string{"rw"}}
	out, err := sharedRT.RunHook(t.Context(), e, hooks.PreToolCall, cwd, []byte("probe\n"))
	if err != nil {
		t.Fatalf("probe: %v", err)
	}
	var got map[string]string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("probe output %q: %v", out, err)
	}

	want := map[string]string{
		// Allowed.
		"cwd":                  "ok /",
		"read ro/data.txt":     "ok data",
		"read /ro/data.txt":    "ok data",
		"read ro/sub/deep.txt": "ok deep",
		"read ro/inner-link":   "ok deep",
		"list ro":              "ok abs-link,data.txt,dir-out,inner-link,link-out,sub",
		"write rw/out.txt":     "ok written",
		"write /rw/abs.txt":    "ok abs",
		"append rw/out.txt":    "ok written+more",
		"mkdir rw/sub":         "ok ",
		"rename in rw":         "ok ",
		"remove in rw":         "ok ",
		"list /":               "ok 0",
		"env":                  "ok MM_HOOK_EVENT=preToolCall",

		// Refused: changes to the read folder.
		"write ro/new.txt":     "refused: open ro/new.txt: Read-only file system",
		"append ro/data.txt":   "refused: open ro/data.txt: Read-only file system",
		"truncate ro/data.txt": "refused: truncate ro/data.txt: Read-only file system",
		"remove ro/data.txt":   "refused: remove ro/data.txt: Read-only file system",
		"mkdir ro/dir":         "refused: mkdir ro/dir: Read-only file system",
		"rename ro/data.txt":   "refused: rename ro/data.txt ro/moved.txt: Read-only file system",
		"chtimes ro/data.txt":  "refused: chtimes ro/data.txt: Read-only file system",
		"write /new.txt":       "refused: open /new.txt: Read-only file system",
		"link ro to rw":        "refused: link ro/data.txt rw/hard.txt: Not implemented on wasip1",

		// Refused: anything outside the folders.
		"read secret.txt":         "refused: open secret.txt: No such file or directory",
		"read /secret.txt":        "refused: open /secret.txt: No such file or directory",
		"read ../secret.txt":      "refused: open ../secret.txt: No such file or directory",
		"read ro/../secret.txt":   "refused: open ro/../secret.txt: No such file or directory",
		"read /etc/passwd":        "refused: open /etc/passwd: No such file or directory",
		"openat ro ../secret.txt": "refused: Operation not permitted",
		"read ro/link-out":        "refused: open ro/link-out: Operation not permitted",
		"read ro/abs-link":        "refused: open ro/abs-link: Operation not permitted",
		"list ro/dir-out":         "refused: open ro/dir-out: Operation not permitted",
		"symlink rw/evil":         "refused: symlink ../secret.txt rw/evil: Operation not permitted",
		"read rw/evil":            "refused: open rw/evil: No such file or directory",
	}
	for k, w := range want {
		if g, ok := got[k]; !ok {
			t.Errorf("%s: not reported", k)
		} else if g != w {
			t.Errorf("%s:\n got %q\nwant %q", k, g, w)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: unexpected report %q", k, g)
		}
	}

	// On the host: the writes landed in rw, nothing else changed.
	for name, content := range map[string]string{
		"rw/out.txt":          "written+more",
		"rw/abs.txt":          "abs",
		"rw/b.txt":            "a",
		"rw/sub/deeper/f.txt": "f",
		"ro/data.txt":         "data",
		"secret.txt":          "secret",
		"ro/sub/deep.txt":     "deep",
		"rw/gone.txt":         "",
		"rw/a.txt":            "",
		"rw/evil":             "",
		"rw/hard.txt":         "",
		"ro/new.txt":          "",
		"ro/moved.txt":        "",
		"ro/dir":              "",
	} {
		p := filepath.Join(cwd, name)
		b, err := os.ReadFile(p)
		switch {
		case content == "":
			if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s exists on the host", name)
			}
		case err != nil:
			t.Errorf("%s: %v", name, err)
		case string(b) != content:
			t.Errorf("%s holds %q, want %q", name, b, content)
		}
	}
	if fi, err := os.Stat(filepath.Join(cwd, "ro/data.txt")); err != nil || !fi.ModTime().Equal(old) {
		t.Errorf("ro/data.txt's time changed: %v, %v", fi.ModTime(), err)
	}
}

// TestNoNetwork: the reference's "Network: none". A module sends a byte to
// a TCP and a UDP listener of this test: both are refused (by the network
// Go's wasip1 port simulates inside the module, where nothing listens),
// and nothing reaches the listeners.
func TestNoNetwork(t *testing.T) {
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer tcp.Close()
	udp, err := net.ListenPacket("udp", tcp.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	reached := make(chan string, 2)
	go func() {
		if c, err := tcp.Accept(); err == nil {
			c.Close()
			reached <- "tcp"
		}
	}()
	go func() {
		if _, _, err := udp.ReadFrom(make([]byte, 1)); err == nil {
			reached <- "udp"
		}
	}()

	addr := tcp.Addr().String()
	out, err := run(t, Spec{Module: guest(t), Args: []string{"net", addr}, Cwd: t.TempDir()})
	if err != nil {
		t.Fatalf("net: %v", err)
	}
	var got map[string]string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("net output %q: %v", out, err)
	}
	// The UDP line names the module's own port, whatever it was given.
	want := map[string]*regexp.Regexp{
		"tcp": regexp.MustCompile(`^` + regexp.QuoteMeta("refused: dial tcp "+addr+": address "+addr+": connect: Connection refused") + `$`),
		"udp": regexp.MustCompile(`^refused: write udp 127\.0\.0\.1:[0-9]+->` + regexp.QuoteMeta(addr+": write: Connection reset by peer") + `$`),
	}
	if len(got) != len(want) {
		t.Errorf("got %v, want reports of %d attempts", got, len(want))
	}
	for k, w := range want {
		if !w.MatchString(got[k]) {
			t.Errorf("%s:\n got %q\nwant %s", k, got[k], w)
		}
	}
	// What a module sent would have arrived before it ended; close the
	// listeners and see whether anything did.
	tcp.Close()
	udp.Close()
	select {
	case what := <-reached:
		t.Errorf("the module reached the %s listener", what)
	default:
	}
}

// TestEnvironmentAndArgs: a module reads only the environment and the
// arguments it is given, its file name first.
func TestEnvironmentAndArgs(t *testing.T) {
	out, err := run(t, Spec{Module: guest(t), Args: []string{"env"}, Env: map[string]string{"B": "2", "A": "1"}, Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"args":["guest.wasm","env"],"env":["A=1","B=2"]}` + "\n"
	if string(out) != want {
		t.Errorf("got %s\nwant %s", out, want)
	}
}

// TestClock: the real clock, and a sleep that lasts.
func TestClock(t *testing.T) {
	out, err := run(t, Spec{Module: guest(t), Args: []string{"clock"}, Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "true true\n" {
		t.Errorf("got %q, want a date after 2025 and a sleep of 20ms", out)
	}
}

// TestFolders: a folder that is missing, a file, or a link leading out of
// the working directory is a failure of the run, named.
func TestFolders(t *testing.T) {
	cwd := t.TempDir()
	writeFiles(t, cwd, map[string]string{
		"logs":       "/",
		"file":       "not a folder",
		"out":        "->/etc",
		"inside":     "->logs",
		"nested/dir": "/",
	})
	tests := []struct {
		read, write []string
		want        string
	}{
		{write: []string{"logs", "missing"}, want: "the folder missing this module may see does not exist in " + cwd},
		{read: []string{"file"}, want: "the folder file this module may see does not exist in " + cwd},
		{read: []string{"out"}, want: "the folder out this module may see leads outside " + cwd},
		{read: []string{"inside", "nested/dir"}, want: ""},
	}
	for _, tt := range tests {
		_, err := run(t, Spec{Module: guest(t), Args: []string{"echo"}, Cwd: cwd, Read: tt.read, Write: tt.write})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("read %v write %v:\n got %q\nwant %q", tt.read, tt.write, got, tt.want)
		}
	}
}
