package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// createUnnamed makes an unnamed temporary file in dir (O_TMPFILE), which
// disappears with the process if it is killed before renameTo names it.
func createUnnamed(dir, base string) (*tempFile, error) {
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o600)
	if err != nil {
		// Not supported by this file system (or kernel), or the folder may
		// not be written: a named temporary file says which.
		return nil, errNoTmpfile
	}
	return &tempFile{File: os.NewFile(uintptr(fd), filepath.Join(dir, "."+base+tempMark)), dir: dir, base: base}, nil
}

// linkUnnamed gives the unnamed file f a temporary name in dir, through
// /proc (linkat with AT_EMPTY_PATH needs a privilege).
func linkUnnamed(f *os.File, dir, base string) (string, error) {
	from := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
	for range 10 {
		name := tempName(dir, base)
		err := unix.Linkat(unix.AT_FDCWD, from, unix.AT_FDCWD, name, unix.AT_SYMLINK_FOLLOW)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, unix.EEXIST) {
			return "", errNoTmpfile
		}
	}
	return "", errNoTmpfile
}
