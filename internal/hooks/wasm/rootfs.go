package wasm

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"

	"github.com/mm-agent/mm/internal/regularfile"
)

// rootFS is a folder a module may see, served through os.Root so that no
// path — "..", an absolute symbolic link, a relative one that climbs out —
// resolves outside it. wazero's own directory file system follows links out
// of the folder; this one cannot.
type rootFS struct {
	experimentalsys.UnimplementedFS
	root     *os.Root
	readOnly bool
}

// errnoOf maps an error from os.Root to the errno the guest reads. os.Root
// words some refusals as plain errors rather than system errnos; the one
// for a path leading outside the folder becomes EPERM. A named pipe, a
// device or a socket, which mm does not open, is EACCES.
func errnoOf(err error) experimentalsys.Errno {
	switch {
	case err == nil:
		return 0
	case escapes(err):
		return experimentalsys.EPERM
	case errors.As(err, new(*regularfile.NotRegularError)):
		return experimentalsys.EACCES
	case strings.HasSuffix(err.Error(), "not a directory"):
		return experimentalsys.ENOTDIR
	}
	return experimentalsys.UnwrapOSError(err)
}

// escapes reports whether err is os.Root's refusal of a path (or a link)
// that leads outside its folder; the os package does not export it.
func escapes(err error) bool {
	return strings.HasSuffix(err.Error(), "path escapes from parent")
}

// osFlag translates wazero's open flags to the os package's.
func osFlag(flag experimentalsys.Oflag) int {
	var f int
	switch flag & (experimentalsys.O_RDONLY | experimentalsys.O_RDWR | experimentalsys.O_WRONLY) {
	case experimentalsys.O_RDWR:
		f = os.O_RDWR
	case experimentalsys.O_WRONLY:
		f = os.O_WRONLY
	default:
		f = os.O_RDONLY
	}
	for _, m := range []struct {
		from experimentalsys.Oflag
		to   int
	}{
		{experimentalsys.O_APPEND, os.O_APPEND},
		{experimentalsys.O_CREAT, os.O_CREATE},
		{experimentalsys.O_EXCL, os.O_EXCL},
		{experimentalsys.O_TRUNC, os.O_TRUNC},
		{experimentalsys.O_SYNC, os.O_SYNC},
		{experimentalsys.O_DIRECTORY, oDirectory},
		{experimentalsys.O_NOFOLLOW, oNoFollow},
	} {
		if flag&m.from != 0 {
			f |= m.to
		}
	}
	return f
}

// writes reports whether opening with flag could change the file system.
func writes(flag experimentalsys.Oflag) bool {
	return flag&(experimentalsys.O_RDWR|experimentalsys.O_WRONLY|experimentalsys.O_CREAT|experimentalsys.O_TRUNC|experimentalsys.O_APPEND) != 0
}

// OpenFile implements experimentalsys.FS.
func (r *rootFS) OpenFile(name string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	if flag&experimentalsys.O_DIRECTORY != 0 && flag&(experimentalsys.O_RDWR|experimentalsys.O_WRONLY) != 0 {
		return nil, experimentalsys.EISDIR
	}
	if r.readOnly && writes(flag) {
		return nil, experimentalsys.EROFS
	}
	// A named pipe or a device would block the open (the module could not
	// be stopped inside it) or never end: only files and folders are served.
	f, err := regularfile.OpenInRoot(r.root, name, osFlag(flag), perm.Perm())
	if err != nil {
		return nil, errnoOf(err)
	}
	rf := &rootFile{fs: r, name: name, flag: flag, file: f}
	rf.seekFunc = rf.seek
	return rf, 0
}

// Lstat implements experimentalsys.FS.
func (r *rootFS) Lstat(name string) (sys.Stat_t, experimentalsys.Errno) {
	fi, err := r.root.Lstat(name)
	if err != nil {
		return sys.Stat_t{}, errnoOf(err)
	}
	return sys.NewStat_t(fi), 0
}

// Stat implements experimentalsys.FS.
func (r *rootFS) Stat(name string) (sys.Stat_t, experimentalsys.Errno) {
	fi, err := r.root.Stat(name)
	if err != nil {
		return sys.Stat_t{}, errnoOf(err)
	}
	return sys.NewStat_t(fi), 0
}

// Readlink implements experimentalsys.FS: reading a link's text reveals
// nothing outside the folder, following it is what os.Root polices.
func (r *rootFS) Readlink(name string) (string, experimentalsys.Errno) {
	s, err := r.root.Readlink(name)
	return s, errnoOf(err)
}

// Mkdir implements experimentalsys.FS.
func (r *rootFS) Mkdir(name string, perm fs.FileMode) experimentalsys.Errno {
	if r.readOnly {
		return experimentalsys.EROFS
	}
	return errnoOf(r.root.Mkdir(name, perm.Perm()))
}

// Chmod implements experimentalsys.FS.
func (r *rootFS) Chmod(name string, perm fs.FileMode) experimentalsys.Errno {
	if r.readOnly {
		return experimentalsys.EROFS
	}
	return errnoOf(r.root.Chmod(name, perm.Perm()))
}

// Rename implements experimentalsys.FS.
func (r *rootFS) Rename(from, to string) experimentalsys.Errno {
	if r.readOnly {
		return experimentalsys.EROFS
	}
	return errnoOf(r.root.Rename(from, to))
}

// Rmdir implements experimentalsys.FS.
func (r *rootFS) Rmdir(name string) experimentalsys.Errno {
	if r.readOnly {
		return experimentalsys.EROFS
	}
	fi, err := r.root.Lstat(name)
	if err != nil {
		return errnoOf(err)
	}
	if !fi.IsDir() {
		return experimentalsys.ENOTDIR
	}
	return errnoOf(r.root.Remove(name))
}

// Unlink implements experimentalsys.FS.
func (r *rootFS) Unlink(name string) experimentalsys.Errno {
	if r.readOnly {
		return experimentalsys.EROFS
	}
	fi, err := r.root.Lstat(name)
	if err != nil {
		return errnoOf(err)
	}
	if fi.IsDir() {
		return experimentalsys.EISDIR
	}
	return errnoOf(r.root.Remove(name))
}

// Link implements experimentalsys.FS. Both names resolve inside the folder,
// so a hard link cannot reach a file outside it.
func (r *rootFS) Link(oldName, newName string) experimentalsys.Errno {
	if r.readOnly {
		return experimentalsys.EROFS
	}
	return errnoOf(r.root.Link(oldName, newName))
}

// Symlink implements experimentalsys.FS by refusing: os.Root would not let
// the module follow a link out of the folder, but the link would stay on
// disk for the programs that are not so confined.
func (r *rootFS) Symlink(_, _ string) experimentalsys.Errno {
	if r.readOnly {
		return experimentalsys.EROFS
	}
	return experimentalsys.EPERM
}

// Utimens implements experimentalsys.FS.
func (r *rootFS) Utimens(name string, atim, mtim int64) experimentalsys.Errno {
	if r.readOnly {
		return experimentalsys.EROFS
	}
	return errnoOf(r.root.Chtimes(name, utime(atim), utime(mtim)))
}

// utime converts a WASI time stamp; the zero time.Time leaves a time as it is.
func utime(ns int64) time.Time {
	if ns == experimentalsys.UTIME_OMIT {
		return time.Time{}
	}
	return time.Unix(0, ns)
}
