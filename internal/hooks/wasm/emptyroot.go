package wasm

import (
	"io/fs"
	"strings"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
)

// emptyRoot is the module's "/": an empty, read-only folder. It is mounted
// first so that a Go guest, which takes the first mounted folder as its
// working directory when PWD is unset, resolves "logs/x" as "/logs/x"; and
// so that any path outside the mounted folders simply does not exist.
type emptyRoot struct {
	experimentalsys.UnimplementedFS
}

func isRoot(name string) bool {
	return name == "" || name == "." || name == "/"
}

// OpenFile implements experimentalsys.FS.
func (emptyRoot) OpenFile(name string, flag experimentalsys.Oflag, _ fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	switch {
	case isRoot(name) && flag&(experimentalsys.O_RDWR|experimentalsys.O_WRONLY) != 0:
		return nil, experimentalsys.EISDIR
	case isRoot(name):
		return &emptyDir{seekFunc: rewind}, 0
	case flag&experimentalsys.O_CREAT != 0 && !strings.Contains(strings.TrimSuffix(name, "/"), "/"):
		return nil, experimentalsys.EROFS
	}
	return nil, experimentalsys.ENOENT
}

// Stat implements experimentalsys.FS.
func (r emptyRoot) Stat(name string) (sys.Stat_t, experimentalsys.Errno) {
	if isRoot(name) {
		return emptyDirStat, 0
	}
	return sys.Stat_t{}, experimentalsys.ENOENT
}

// Lstat implements experimentalsys.FS.
func (r emptyRoot) Lstat(name string) (sys.Stat_t, experimentalsys.Errno) {
	return r.Stat(name)
}

// Readlink implements experimentalsys.FS.
func (emptyRoot) Readlink(name string) (string, experimentalsys.Errno) {
	if isRoot(name) {
		return "", experimentalsys.EINVAL
	}
	return "", experimentalsys.ENOENT
}

// The changes below are refused: nothing can be created in "/".

// Mkdir implements experimentalsys.FS.
func (emptyRoot) Mkdir(string, fs.FileMode) experimentalsys.Errno { return experimentalsys.EROFS }

// Chmod implements experimentalsys.FS.
func (emptyRoot) Chmod(string, fs.FileMode) experimentalsys.Errno { return experimentalsys.EROFS }

// Rename implements experimentalsys.FS.
func (emptyRoot) Rename(string, string) experimentalsys.Errno { return experimentalsys.EROFS }

// Rmdir implements experimentalsys.FS.
func (emptyRoot) Rmdir(string) experimentalsys.Errno { return experimentalsys.EROFS }

// Unlink implements experimentalsys.FS.
func (emptyRoot) Unlink(string) experimentalsys.Errno { return experimentalsys.EROFS }

// Link implements experimentalsys.FS.
func (emptyRoot) Link(string, string) experimentalsys.Errno { return experimentalsys.EROFS }

// Symlink implements experimentalsys.FS.
func (emptyRoot) Symlink(string, string) experimentalsys.Errno { return experimentalsys.EROFS }

// Utimens implements experimentalsys.FS.
func (emptyRoot) Utimens(string, int64, int64) experimentalsys.Errno {
	return experimentalsys.EROFS
}

var emptyDirStat = sys.Stat_t{Mode: fs.ModeDir | 0o555, Nlink: 2}

// emptyDir is the open "/": a folder with no entries.
type emptyDir struct {
	experimentalsys.DirFile
	seekFunc[int64] // rewind
}

// Dev implements experimentalsys.File.
func (*emptyDir) Dev() (uint64, experimentalsys.Errno) { return 0, 0 }

// Ino implements experimentalsys.File.
func (*emptyDir) Ino() (sys.Inode, experimentalsys.Errno) { return 0, 0 }

// Sync implements experimentalsys.File.
func (*emptyDir) Sync() experimentalsys.Errno { return 0 }

// Datasync implements experimentalsys.File.
func (*emptyDir) Datasync() experimentalsys.Errno { return 0 }

// Utimens implements experimentalsys.File.
func (*emptyDir) Utimens(int64, int64) experimentalsys.Errno { return experimentalsys.EROFS }

// Close implements experimentalsys.File.
func (*emptyDir) Close() experimentalsys.Errno { return 0 }

// Stat implements experimentalsys.File.
func (*emptyDir) Stat() (sys.Stat_t, experimentalsys.Errno) { return emptyDirStat, 0 }

// rewind is the folder's Seek (see seekFunc): only a rewind, which changes
// nothing, is allowed.
func rewind(offset int64, whence int) (int64, experimentalsys.Errno) {
	if offset == 0 && whence == 0 {
		return 0, 0
	}
	return 0, experimentalsys.EISDIR
}

// Readdir implements experimentalsys.File.
func (*emptyDir) Readdir(int) ([]experimentalsys.Dirent, experimentalsys.Errno) { return nil, 0 }

var (
	_ experimentalsys.FS   = emptyRoot{}
	_ experimentalsys.File = (*emptyDir)(nil)
	_ experimentalsys.FS   = (*rootFS)(nil)
	_ experimentalsys.File = (*rootFile)(nil)
)
