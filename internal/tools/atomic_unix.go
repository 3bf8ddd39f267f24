//go:build unix

package tools

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// writable reports, as the shell would find on opening it, whether this
// process may write the file at path: access(2) with its effective ids.
// A folder this user may write lets them replace a file there, not write it.
func writable(path string) error {
	if err := unix.Faccessat(unix.AT_FDCWD, path, unix.W_OK, unix.AT_EACCESS); err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	return nil
}

// links is how many names the file of fi has.
func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// keepOwner gives f the owner and group of old's file, where they differ;
// a permission error says that this user may not.
func keepOwner(f *os.File, old fs.FileInfo) error {
	want, ok := old.Sys().(*syscall.Stat_t)
	fi, err := f.Stat()
	if err != nil || !ok {
		return err
	}
	if have, ok := fi.Sys().(*syscall.Stat_t); ok && have.Uid == want.Uid && have.Gid == want.Gid {
		return nil
	}
	return f.Chown(int(want.Uid), int(want.Gid))
}
