package cli

import (
	"context"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// lineInput is stdin for the line mode, as a reader that ctx's end
// interrupts: a signal that ends mm then ends the line mode as the end of
// input does, and the session closes as it always does. It is a second,
// non-blocking open of the same pipe or terminal (/proc/self/fd/0), which
// Go's poller can interrupt without touching the flags of the stdin mm
// shares with its parent; a regular file, which never blocks, or anything
// that cannot be opened again, is os.Stdin itself. done closes it.
func lineInput(ctx context.Context) (in io.ReadCloser, done func()) {
	if fi, err := os.Stdin.Stat(); err != nil || fi.Mode().IsRegular() {
		return os.Stdin, func() {}
	}
	fd, err := unix.Open("/proc/self/fd/0", unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return os.Stdin, func() {}
	}
	f := os.NewFile(uintptr(fd), "/dev/stdin")
	stop := context.AfterFunc(ctx, func() { _ = f.SetReadDeadline(time.Now()) })
	return f, func() {
		stop()
		f.Close()
	}
}
