package wasm

import (
	"errors"
	"io"
	"io/fs"
	"os"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"

	"github.com/mm-agent/mm/internal/regularfile"
)

// rootFile is a file or folder opened through a rootFS. A folder is reopened
// by name through the same root when the guest rewinds it, so that its
// listing is fresh, and that reopening is confined like the first open.
type rootFile struct {
	seekFunc[int64] // f.seek
	fs              *rootFS
	name            string
	flag            experimentalsys.Oflag
	file            *os.File

	// st holds the parts of the status that do not change while open.
	st *sys.Stat_t
	// reopen is set when a folder was rewound: the next Readdir reopens it.
	reopen bool
	closed bool
}

func (f *rootFile) stat() (*sys.Stat_t, experimentalsys.Errno) {
	if f.st == nil {
		st, errno := f.Stat()
		if errno != 0 {
			return nil, errno
		}
		f.st = &st
	}
	return f.st, 0
}

// Dev implements experimentalsys.File.
func (f *rootFile) Dev() (uint64, experimentalsys.Errno) {
	st, errno := f.stat()
	if errno != 0 {
		return 0, errno
	}
	return st.Dev, 0
}

// Ino implements experimentalsys.File.
func (f *rootFile) Ino() (sys.Inode, experimentalsys.Errno) {
	st, errno := f.stat()
	if errno != 0 {
		return 0, errno
	}
	return st.Ino, 0
}

// IsDir implements experimentalsys.File.
func (f *rootFile) IsDir() (bool, experimentalsys.Errno) {
	st, errno := f.stat()
	if errno != 0 {
		return false, errno
	}
	return st.Mode.IsDir(), 0
}

// IsAppend implements experimentalsys.File.
func (f *rootFile) IsAppend() bool {
	return f.flag&experimentalsys.O_APPEND != 0
}

// SetAppend implements experimentalsys.File. The append mode of an open
// file cannot change, so the file is opened again, at the same offset.
func (f *rootFile) SetAppend(enable bool) experimentalsys.Errno {
	if f.closed {
		return experimentalsys.EBADF
	}
	if enable == f.IsAppend() {
		return 0
	}
	if f.fs.readOnly && enable {
		return experimentalsys.EROFS
	}
	flag := f.flag &^ (experimentalsys.O_CREAT | experimentalsys.O_TRUNC | experimentalsys.O_EXCL | experimentalsys.O_APPEND)
	if enable {
		flag |= experimentalsys.O_APPEND
	}
	offset, err := f.file.Seek(0, io.SeekCurrent)
	if err != nil {
		return errnoOf(err)
	}
	if errno := f.reopenAs(flag); errno != 0 {
		return errno
	}
	if _, err := f.file.Seek(offset, io.SeekStart); err != nil {
		return errnoOf(err)
	}
	return 0
}

// reopenAs opens the same name again with flag and checks it is still the
// same file before putting it in place.
func (f *rootFile) reopenAs(flag experimentalsys.Oflag) experimentalsys.Errno {
	nf, err := regularfile.OpenInRoot(f.fs.root, f.name, osFlag(flag), 0)
	if err != nil {
		return errnoOf(err)
	}
	a, err1 := f.file.Stat()
	b, err2 := nf.Stat()
	if err := errors.Join(err1, err2); err != nil {
		nf.Close()
		return errnoOf(err)
	}
	if !os.SameFile(a, b) {
		nf.Close()
		return experimentalsys.ENOENT
	}
	f.file.Close()
	f.file, f.flag = nf, flag
	return 0
}

// Stat implements experimentalsys.File.
func (f *rootFile) Stat() (sys.Stat_t, experimentalsys.Errno) {
	if f.closed {
		return sys.Stat_t{}, experimentalsys.EBADF
	}
	fi, err := f.file.Stat()
	if err != nil {
		return sys.Stat_t{}, errnoOf(err)
	}
	return sys.NewStat_t(fi), 0
}

// Read implements experimentalsys.File.
func (f *rootFile) Read(buf []byte) (int, experimentalsys.Errno) {
	if len(buf) == 0 {
		return 0, 0
	}
	n, err := f.file.Read(buf)
	return n, f.errno(err)
}

// Pread implements experimentalsys.File.
func (f *rootFile) Pread(buf []byte, off int64) (int, experimentalsys.Errno) {
	if len(buf) == 0 {
		return 0, 0
	}
	n, err := f.file.ReadAt(buf, off)
	return n, f.errno(err)
}

// seek is the file's Seek (see seekFunc). Rewinding a folder marks it for
// reopening; any other seek on a folder is refused.
func (f *rootFile) seek(offset int64, whence int) (int64, experimentalsys.Errno) {
	if f.closed {
		return 0, experimentalsys.EBADF
	}
	if dir, errno := f.IsDir(); errno != 0 {
		return 0, errno
	} else if dir {
		if offset == 0 && whence == io.SeekStart {
			f.reopen = true
			return 0, 0
		}
		return 0, experimentalsys.EISDIR
	}
	n, err := f.file.Seek(offset, whence)
	return n, f.errno(err)
}

// Readdir implements experimentalsys.File. Inode numbers are left at zero,
// which WASI allows, to spare an lstat per entry.
func (f *rootFile) Readdir(n int) ([]experimentalsys.Dirent, experimentalsys.Errno) {
	if f.closed {
		return nil, experimentalsys.EBADF
	}
	if dir, errno := f.IsDir(); errno != 0 {
		return nil, errno
	} else if !dir {
		return nil, experimentalsys.EBADF
	}
	if f.reopen {
		f.reopen = false
		if errno := f.reopenAs(f.flag); errno != 0 {
			return nil, errno
		}
	}
	if n <= 0 {
		n = -1
	}
	entries, err := f.file.ReadDir(n)
	if err != nil && err != io.EOF {
		return nil, errnoOf(err)
	}
	out := make([]experimentalsys.Dirent, len(entries))
	for i, e := range entries {
		out[i] = experimentalsys.Dirent{Name: e.Name(), Type: e.Type() & fs.ModeType}
	}
	return out, 0
}

// Write implements experimentalsys.File.
func (f *rootFile) Write(buf []byte) (int, experimentalsys.Errno) {
	if len(buf) == 0 {
		return 0, 0
	}
	n, err := f.file.Write(buf)
	return n, f.errno(err)
}

// Pwrite implements experimentalsys.File.
func (f *rootFile) Pwrite(buf []byte, off int64) (int, experimentalsys.Errno) {
	if len(buf) == 0 {
		return 0, 0
	}
	n, err := f.file.WriteAt(buf, off)
	return n, f.errno(err)
}

// Truncate implements experimentalsys.File.
func (f *rootFile) Truncate(size int64) experimentalsys.Errno {
	if size < 0 {
		return experimentalsys.EINVAL
	}
	if f.fs.readOnly {
		return experimentalsys.EROFS
	}
	return f.errno(f.file.Truncate(size))
}

// Sync implements experimentalsys.File.
func (f *rootFile) Sync() experimentalsys.Errno {
	return f.errno(f.file.Sync())
}

// Datasync implements experimentalsys.File.
func (f *rootFile) Datasync() experimentalsys.Errno {
	return f.Sync()
}

// Utimens implements experimentalsys.File. A file of a read-only folder
// keeps its times, though the system would let its owner change them.
func (f *rootFile) Utimens(atim, mtim int64) experimentalsys.Errno {
	if f.closed {
		return experimentalsys.EBADF
	}
	if f.fs.readOnly {
		return experimentalsys.EROFS
	}
	return errnoOf(f.fs.root.Chtimes(f.name, utime(atim), utime(mtim)))
}

// Close implements experimentalsys.File.
func (f *rootFile) Close() experimentalsys.Errno {
	if f.closed {
		return 0
	}
	f.closed = true
	return errnoOf(f.file.Close())
}

// errno maps an error of an operation on the open file; EOF is no error.
func (f *rootFile) errno(err error) experimentalsys.Errno {
	if err == nil || err == io.EOF {
		return 0
	}
	if f.closed {
		return experimentalsys.EBADF
	}
	return errnoOf(err)
}
