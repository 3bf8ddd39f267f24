package sessions

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"syscall"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
)

// fullDisk is a file on a disk that fills up: it takes room bytes, then
// fails as write(2) does (what fit, and ENOSPC), until freed.
type fullDisk struct {
	buf  bytes.Buffer
	room int
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if len(p) <= d.room {
		d.room -= len(p)
		return d.buf.Write(p)
	}
	n := d.room
	d.buf.Write(p[:n])
	d.room = 0
	return n, &os.PathError{Op: "write", Path: "/s/x.jsonl", Err: syscall.ENOSPC}
}

func (d *fullDisk) Close() error { return nil }

func messages(n int) []llm.Message {
	out := make([]llm.Message, n)
	for i := range out {
		out[i] = llm.Message{Role: llm.RoleUser, Content: "question " + string(rune('a'+i))}
	}
	return out
}

// TestWriterFullDisk: while the disk is full each call fails (the session
// warns once and goes on), what did not fit is kept, and once there is
// room again the file is exactly what it would have been: no gap, no line
// broken in the middle.
func TestWriterFullDisk(t *testing.T) {
	var want bytes.Buffer
	h := Header{ID: "1ngxbx0mj2hk"}
	ok, _ := newWriter("", h, func(string) (file, error) { return &fullDisk{room: 1 << 20}, nil })
	disk := &fullDisk{room: 240} // the header and two messages, and part of a third
	w, _ := newWriter("", h, func(string) (file, error) { return disk, nil })

	msgs := messages(6)
	var errs []error
	for i, m := range msgs {
		if err := ok.Append(m); err != nil {
			t.Fatal(err)
		}
		if i == 4 {
			disk.room = 1 << 20 // room again
		}
		errs = append(errs, w.Append(m))
	}
	want.Write(ok.f.(*fullDisk).buf.Bytes())
	var failed []bool
	for _, err := range errs {
		failed = append(failed, err != nil)
		if err != nil && !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("error %v, want ENOSPC", err)
		}
	}
	if !reflect.DeepEqual(failed, []bool{false, false, true, true, false, false}) {
		t.Errorf("failed calls %v", failed)
	}
	if got := disk.buf.String(); got != want.String() {
		t.Errorf("file after the disk had room again\n got %q\nwant %q", got, want.String())
	}
	if err := w.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// TestWriterDevFull: a real write(2) that fails with ENOSPC (/dev/full):
// every call says so, nothing panics.
func TestWriterDevFull(t *testing.T) {
	w, err := newWriter(t.TempDir(), Header{ID: "1ngxbx0mj2hk", Cwd: "/p"}, func(string) (file, error) { return os.OpenFile("/dev/full", os.O_WRONLY, 0) })
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := w.Append(llm.Message{Role: llm.RoleUser, Content: "q"}); !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("Append: %v, want ENOSPC", err)
		}
	}
	// Close says nothing more: the failing calls said it (the session
	// warned once).
	if err := w.Close(); err != nil || len(w.pending) == 0 {
		t.Errorf("Close: %v (%d bytes pending)", err, len(w.pending))
	}
}

// TestWriterSaved: a session is saved — Open finds it, and the JSON output
// names it — once its lines reached its file, and from the start when it
// goes on in its own file; not before its first message, nor while every
// write failed.
func TestWriterSaved(t *testing.T) {
	h := Header{ID: "1ngxbx0mj2hk"}
	newOn := func(d *fullDisk) *Writer {
		w, err := newWriter("", h, func(string) (file, error) { return d, nil })
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	for _, tc := range []struct {
		name    string
		w       *Writer
		appends int
		want    bool
	}{
		{"new, nothing recorded", newOn(&fullDisk{room: 1 << 20}), 0, false},
		{"new, a message written", newOn(&fullDisk{room: 1 << 20}), 1, true},
		{"new, every write failed", newOn(&fullDisk{room: 10}), 2, false},
		{"going on in its own file", resumed(t), 0, true},
	} {
		for _, m := range messages(tc.appends) {
			_ = tc.w.Append(m)
		}
		if got := tc.w.Saved(); got != tc.want {
			t.Errorf("%s: Saved() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// resumed is the Writer of a saved session resumed in its own file.
func resumed(t *testing.T) *Writer {
	dir := t.TempDir()
	w, err := Create(dir, Header{Cwd: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(messages(1)...); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	saved, err := Open(dir, w.ID())
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := Resume(dir, saved, Header{Cwd: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}
