// Package regularfile opens the files mm is given by name — configurations,
// system prompts, scripts, wasm modules, the files its tools read and edit —
// as regular files only, and reads no more of them than its caller allows.
//
// A named pipe blocks an ordinary open until something writes to it, past
// Ctrl-C and SIGTERM; a device such as /dev/zero never ends; a huge file
// would be held and parsed whole. Open refuses the first two without
// blocking: it opens with O_NONBLOCK (so the open of a named pipe returns at
// once), checks the type of what it opened (with fstat, so nothing can be
// swapped in between), and only then clears O_NONBLOCK for the reads.
// ReadFile refuses the third: it reads at most its limit, and a byte more to
// tell a file that grew while it was read.
package regularfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
)

// NotRegularError is the refusal of something that is not a regular file.
// It comes wrapped in an *fs.PathError naming the path, so that callers
// that name the path themselves can show the reason alone.
type NotRegularError struct {
	// Mode is the mode of what was opened.
	Mode fs.FileMode
}

// Error reads "a named pipe, not a regular file".
func (e *NotRegularError) Error() string {
	return Kind(e.Mode) + ", not a regular file"
}

// TooLargeError is the refusal of a file larger than the caller's limit.
// It comes wrapped in an *fs.PathError naming the path.
type TooLargeError struct {
	// Size is the file's size, or 0 when it is not known: the file grew past
	// the limit while it was read, or (as in /proc) reports no size.
	Size int64
	// Limit is the most the caller reads, in bytes.
	Limit int64
	// For says what the file is to the caller: "a configuration".
	For string
}

// Error reads "3.1 GiB, over mm's limit of 4 MiB for a configuration", or
// "over mm's limit of 4 MiB for a configuration" when the size is not known.
func (e *TooLargeError) Error() string {
	over := fmt.Sprintf("over mm's limit of %s for %s", FormatSize(e.Limit), e.For)
	if e.Size > e.Limit {
		return FormatSize(e.Size) + ", " + over
	}
	return over
}

// Kind names the type of file a mode describes, with its article: "a
// regular file", "a directory", "a named pipe", "a socket", "a device".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// FormatSize writes a size in bytes for people: "512 bytes", "4 MiB",
// "3.1 GiB".
func FormatSize(n int64) string {
	if n == 1 {
		return "1 byte"
	}
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	f, i := float64(n)/1024, 0
	for i < len(units)-1 && math.Round(f*10)/10 >= 1024 {
		f, i = f/1024, i+1
	}
	if n%(int64(1)<<(10*(i+1))) == 0 {
		return fmt.Sprintf("%d %s", n>>(10*(i+1)), units[i])
	}
	return fmt.Sprintf("%.1f %s", f, units[i])
}

// Open opens the regular file at path for reading, following symbolic
// links. Anything else — a folder, a named pipe, a device, a socket — is
// refused at once with a *NotRegularError (inside an *fs.PathError), and
// the open of a named pipe does not wait for a writer.
func Open(path string) (*os.File, fs.FileInfo, error) {
	return OpenFile(path, os.O_RDONLY)
}

// OpenFile opens the regular file at path with flag (os.O_WRONLY, …), as
// Open does; a named pipe opened for writing is refused as one too, whether
// something reads it or not.
func OpenFile(path string, flag int) (*os.File, fs.FileInfo, error) {
	return open(os.OpenFile, os.Stat, path, flag, 0, false)
}

// OpenInRoot opens name in root with flag and perm as root.OpenFile does,
// for a file system served from root: it accepts a regular file or a
// folder, and refuses anything else as Open does, without blocking.
func OpenInRoot(root *os.Root, name string, flag int, perm fs.FileMode) (*os.File, error) {
	f, _, err := open(root.OpenFile, root.Stat, name, flag, perm, true)
	return f, err
}

// open opens name with openFile, flag and O_NONBLOCK, and keeps it only
// when it is a regular file (or, with dirOK, a folder), in blocking mode.
// stat names what a failed open was, when it failed for want of a reader.
func open(openFile func(string, int, fs.FileMode) (*os.File, error), stat func(string) (fs.FileInfo, error),
	name string, flag int, perm fs.FileMode, dirOK bool) (*os.File, fs.FileInfo, error) {
	notRegular := func(m fs.FileMode) error {
		return &fs.PathError{Op: "open", Path: name, Err: &NotRegularError{Mode: m}}
	}
	f, err := openFile(name, flag|oNonblock, perm)
	if noReader(err) {
		// A named pipe opened for writing without blocking, with no reader.
		if fi, serr := stat(name); serr == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
			err = notRegular(fi.Mode())
		}
	}
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() && !(dirOK && fi.IsDir()) {
		err = notRegular(fi.Mode())
	}
	if err == nil {
		err = setBlocking(f)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadFile reads the regular file at path, as Open opens it, when it holds
// at most limit bytes; a larger one is refused with a *TooLargeError
// (inside an *fs.PathError) that names what the file is for, as in "a
// configuration".
func ReadFile(path string, limit int64, what string) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooLarge := func(size int64) error {
		return &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Size: size, Limit: limit, For: what}}
	}
	if fi.Size() > limit {
		return nil, tooLarge(fi.Size())
	}
	// One byte more than the file holds, to meet its end without growing.
	data := make([]byte, 0, fi.Size()+1)
	for {
		end := int64(cap(data))
		if end > limit+1 {
			end = limit + 1
		}
		n, err := f.Read(data[len(data):end])
		data = data[:len(data)+n]
		if int64(len(data)) > limit {
			return nil, tooLarge(0)
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// Same reports whether a and b are one file, links followed; a file that
// cannot be read is no file.
func Same(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// Cause is err without the path a *fs.PathError puts before it, for a
// message that names the file its own way.
func Cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
