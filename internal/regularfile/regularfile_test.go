//go:build unix

package regularfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mm-agent/mm/internal/mustend"
)

// files makes the kinds of file the tests read in a temporary folder.
func files(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("small.txt", "hello\n")
	write("ten.txt", "0123456789")
	write("empty.txt", "")
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"fifo-link": "fifo", "small-link": "small.txt", "zero-link": "/dev/zero"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A sparse file of 3.1 GiB that takes no room on disk.
	f, err := os.Create(filepath.Join(dir, "huge.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(3<<30 + 100<<20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return dir
}

func TestReadFile(t *testing.T) {
	dir := files(t)
	tests := []struct {
		name  string
		limit int64
		want  string // the content, or the error
		as    any    // the error's type, when it fails
	}{
		{"small.txt", 1 << 20, "hello\n", nil},
		{"small-link", 1 << 20, "hello\n", nil},
		{"empty.txt", 1 << 20, "", nil},
		{"ten.txt", 10, "0123456789", nil},
		{"ten.txt", 9, "read DIR/ten.txt: 10 bytes, over mm's limit of 9 bytes for a test file", &TooLargeError{}},
		{"huge.bin", 1 << 20, "read DIR/huge.bin: 3.1 GiB, over mm's limit of 1 MiB for a test file", &TooLargeError{}},
		{"fifo", 1 << 20, "open DIR/fifo: a named pipe, not a regular file", &NotRegularError{}},
		{"fifo-link", 1 << 20, "open DIR/fifo-link: a named pipe, not a regular file", &NotRegularError{}},
		{"zero-link", 1 << 20, "open DIR/zero-link: a device, not a regular file", &NotRegularError{}},
		{"/dev/zero", 1 << 20, "open /dev/zero: a device, not a regular file", &NotRegularError{}},
		{"folder", 1 << 20, "open DIR/folder: a directory, not a regular file", &NotRegularError{}},
		{"missing", 1 << 20, "open DIR/missing: no such file or directory", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.name
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			var got []byte
			var err error
			mustend.Within(t, time.Minute, "ReadFile", func() { got, err = ReadFile(p, tt.limit, "a test file") })
			if err != nil {
				msg := strings.ReplaceAll(err.Error(), dir, "DIR")
				if msg != tt.want {
					t.Errorf("got error %q\nwant       %q", msg, tt.want)
				}
				checkType(t, err, tt.as)
				return
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// checkType fails when err does not wrap an error of as's type (a
// *NotRegularError or a *TooLargeError, or nil for neither).
func checkType(t *testing.T, err error, as any) {
	t.Helper()
	var nr *NotRegularError
	var tl *TooLargeError
	isNR, isTL := errors.As(err, &nr), errors.As(err, &tl)
	_, wantNR := as.(*NotRegularError)
	_, wantTL := as.(*TooLargeError)
	if isNR != wantNR || isTL != wantTL {
		t.Errorf("error %T: NotRegularError %v, TooLargeError %v; want %v, %v", err, isNR, isTL, wantNR, wantTL)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		t.Errorf("error %T is not an *fs.PathError", err)
	}
}

// TestReadFileSizeUnknown: a file that says it is empty and holds more
// (as /proc's do, or one that grows while read) is cut at the limit too.
func TestReadFileSizeUnknown(t *testing.T) {
	const p = "/proc/self/status"
	if fi, err := os.Stat(p); err != nil || fi.Size() != 0 {
		t.Skip("no /proc/self/status of size 0 here")
	}
	_, err := ReadFile(p, 10, "a test file")
	const want = "read /proc/self/status: over mm's limit of 10 bytes for a test file"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	checkType(t, err, &TooLargeError{})
	if b, err := ReadFile(p, 1<<20, "a test file"); err != nil || !strings.Contains(string(b), "Name:") {
		t.Errorf("got %q, %v; want the status", b, err)
	}
}

// TestOpen: the file is returned in blocking mode, with its status.
func TestOpen(t *testing.T) {
	dir := files(t)
	f, fi, err := Open(filepath.Join(dir, "small.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if fi.Size() != 6 || !fi.Mode().IsRegular() {
		t.Errorf("status: size %d, mode %v", fi.Size(), fi.Mode())
	}
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	rc.Control(func(fd uintptr) { flags, err = unix.FcntlInt(fd, unix.F_GETFL, 0) })
	if err != nil || flags&syscall.O_NONBLOCK != 0 {
		t.Errorf("flags %#x (%v): O_NONBLOCK is still set", flags, err)
	}
}

// TestOpenInRoot: a file system's opens, for reading and writing, take a
// regular file or a folder and refuse the rest at once.
func TestOpenInRoot(t *testing.T) {
	dir := files(t)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	tests := []struct {
		name string
		flag int
		want string // "" when it opens
	}{
		{"small.txt", os.O_RDONLY, ""},
		{"small.txt", os.O_WRONLY | os.O_APPEND, ""},
		{"new.txt", os.O_WRONLY | os.O_CREATE, ""},
		{"folder", os.O_RDONLY, ""},
		{"fifo", os.O_RDONLY, "open fifo: a named pipe, not a regular file"},
		{"fifo", os.O_RDWR, "open fifo: a named pipe, not a regular file"},
		{"fifo", os.O_WRONLY | os.O_CREATE | os.O_TRUNC, "open fifo: a named pipe, not a regular file"},
		{"fifo-link", os.O_RDONLY, "open fifo-link: a named pipe, not a regular file"},
	}
	for _, tt := range tests {
		var f *os.File
		var err error
		mustend.Within(t, time.Minute, "OpenInRoot", func() { f, err = OpenInRoot(root, tt.name, tt.flag, 0o644) })
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			f.Close()
		}
		if got != tt.want {
			t.Errorf("%s (flag %#x): got %q, want %q", tt.name, tt.flag, got, tt.want)
		}
	}
}

// TestOpenFile: opened for writing, a named pipe is refused whether or not
// something reads it, and the open never waits.
func TestOpenFile(t *testing.T) {
	dir := files(t)
	pipe := filepath.Join(dir, "fifo")
	want := "open " + pipe + ": a named pipe, not a regular file"
	var err error
	mustend.Within(t, time.Minute, "OpenFile", func() { _, _, err = OpenFile(pipe, os.O_WRONLY) })
	if err == nil || err.Error() != want {
		t.Errorf("no reader: got %v, want %s", err, want)
	}
	reader, err := os.OpenFile(pipe, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	mustend.Within(t, time.Minute, "OpenFile", func() { _, _, err = OpenFile(pipe, os.O_WRONLY) })
	if err == nil || err.Error() != want {
		t.Errorf("with a reader: got %v, want %s", err, want)
	}
	f, fi, err := OpenFile(filepath.Join(dir, "small.txt"), os.O_WRONLY)
	if err != nil || fi.Size() != 6 {
		t.Fatalf("small.txt: %v, %v", fi, err)
	}
	f.Close()
}

func TestFormatSize(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 bytes"},
		{1, "1 byte"},
		{1023, "1023 bytes"},
		{1024, "1 KiB"},
		{1536, "1.5 KiB"},
		{4 << 20, "4 MiB"},
		{1<<20 - 1, "1.0 MiB"},
		{3<<30 + 100<<20, "3.1 GiB"},
		{1 << 62, "4 EiB"},
	}
	for _, tt := range tests {
		if got := FormatSize(tt.n); got != tt.want {
			t.Errorf("FormatSize(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
