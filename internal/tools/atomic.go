package tools

import (
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mm-agent/mm/internal/regularfile"
)

// The temporary files of a write. A file is replaced by writing its new
// content to a temporary file in the same folder, then renaming that over
// it. On Linux the temporary file has no name while it is written
// (O_TMPFILE): a write killed midway leaves nothing behind. Elsewhere, or on
// a file system without O_TMPFILE, it is named .<name>.mm-tmp-<digits>, and
// such a file older than staleTempAge is removed the next time a file is
// written in its folder.
const (
	tempMark = ".mm-tmp-"
	// staleTempAge is when a temporary file is taken as left by a killed
	// write. A write holds it for as long as writing the content takes —
	// milliseconds, seconds for the largest edit on a slow disk — so ten
	// minutes is beyond any, with room for the clocks of a shared folder.
	staleTempAge = 10 * time.Minute
)

// errNoTmpfile says that an unnamed temporary file cannot be made, or
// given a name, here: the write goes through a named one.
var errNoTmpfile = errors.New("no O_TMPFILE here")

// errKeepInPlace says that the file cannot be replaced by another that
// looks the same to everyone — its owner cannot be kept, or its folder may
// not be written — while it may be written: it is written in place.
var errKeepInPlace = errors.New("the file must be written in place")

// writeAtomic writes data to the file at path, as writeFile does.
func writeAtomic(path string, data []byte, perm fs.FileMode) error {
	return writeFile(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeFile writes what fill writes to the file at path, respecting the
// file system as the shell does. A symbolic link is followed, not
// replaced. A file this user may not write (access(2) with the effective
// ids) is refused, permission denied, though its folder may be written. A
// new file gets mode perm. An existing one is replaced by a file with its
// mode and owner, atomically (see the temporary files above), unless it
// has several names (hard links) or its owner cannot be kept, or its
// folder may not be written: then it is written in place, as the shell
// does, so that every name sees the change and nobody's file changes hands.
// fill may be called twice and must write the same each time.
func writeFile(path string, perm fs.FileMode, fill func(io.Writer) error) error {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	defer removeStaleTemps(filepath.Dir(path), time.Now())
	old, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return replaceFile(path, nil, perm, fill)
	case err != nil:
		return err
	case !old.Mode().IsRegular():
		return &fs.PathError{Op: "write", Path: path, Err: &regularfile.NotRegularError{Mode: old.Mode()}}
	}
	if err := writable(path); err != nil {
		return err
	}
	if links(old) > 1 {
		return writeInPlace(path, fill)
	}
	err = replaceFile(path, old, old.Mode().Perm(), fill)
	if errors.Is(err, errKeepInPlace) {
		return writeInPlace(path, fill)
	}
	return err
}

// replaceFile writes fill's content to a temporary file in path's folder,
// with the owner of old (when there is an old file) and mode perm, flushes
// it to disk and renames it over path.
func replaceFile(path string, old fs.FileInfo, perm fs.FileMode, fill func(io.Writer) error) error {
	err := replaceVia(createUnnamed, path, old, perm, fill)
	if errors.Is(err, errNoTmpfile) {
		err = replaceVia(createNamed, path, old, perm, fill)
	}
	return err
}

// replaceVia is replaceFile with the temporary file create makes.
func replaceVia(create func(dir, base string) (*tempFile, error), path string, old fs.FileInfo, perm fs.FileMode, fill func(io.Writer) error) error {
	tmp, err := create(filepath.Dir(path), filepath.Base(path))
	if old != nil && errors.Is(err, fs.ErrPermission) {
		return errKeepInPlace // the file may be written, not its folder
	}
	if err != nil {
		return err
	}
	defer tmp.discard()
	if old != nil {
		if err := keepOwner(tmp.File, old); errors.Is(err, fs.ErrPermission) {
			return errKeepInPlace
		} else if err != nil {
			return err
		}
	}
	if err := fill(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	return tmp.renameTo(path)
}

// writeInPlace writes fill's content into the file at path itself, as the
// shell's > does: the file keeps its inode, names and owner. The new content
// goes over the old before the file is cut to its length, so that a write
// that fails midway leaves as much of the file as it can.
func writeInPlace(path string, fill func(io.Writer) error) error {
	f, _, err := regularfile.OpenFile(path, os.O_WRONLY)
	if err != nil {
		return err
	}
	defer f.Close()
	w := &countingWriter{w: f}
	if err := fill(w); err != nil {
		return err
	}
	if err := f.Truncate(w.n); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	return f.Close()
}

// countingWriter counts what it writes.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// tempFile is the temporary file of a write: unnamed until it is renamed
// (name empty), or named.
type tempFile struct {
	*os.File
	dir, base, name string
}

// createNamed makes a named temporary file for the file base of dir.
func createNamed(dir, base string) (*tempFile, error) {
	f, err := os.CreateTemp(dir, "."+base+tempMark+"*")
	if err != nil {
		return nil, err
	}
	return &tempFile{File: f, dir: dir, base: base, name: f.Name()}, nil
}

// renameTo puts the temporary file in the place of path, naming it first
// if it has no name.
func (t *tempFile) renameTo(path string) error {
	if t.name == "" {
		name, err := linkUnnamed(t.File, t.dir, t.base)
		if err != nil {
			return err
		}
		t.name = name
	}
	if err := t.Close(); err != nil {
		return err
	}
	if err := os.Rename(t.name, path); err != nil {
		return err
	}
	t.name = ""
	return nil
}

// discard closes the temporary file and removes its name, if it still has
// one; after renameTo it does nothing.
func (t *tempFile) discard() {
	t.Close()
	if t.name != "" {
		os.Remove(t.name)
	}
}

// tempName is a fresh name for a temporary file of the file base in dir.
func tempName(dir, base string) string {
	return filepath.Join(dir, "."+base+tempMark+strconv.FormatUint(uint64(rand.Uint32()), 10))
}

// isTempName reports whether name is that of a temporary file of a write:
// .<name>.mm-tmp-<digits>.
func isTempName(name string) bool {
	i := strings.LastIndex(name, tempMark)
	if !strings.HasPrefix(name, ".") || i < 1 {
		return false
	}
	digits := name[i+len(tempMark):]
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return digits != ""
}

// removeStaleTemps removes the temporary files in dir that writes killed
// midway left, older than staleTempAge at now. Nothing else is touched,
// and failures are ignored: the write that called it has its own result.
func removeStaleTemps(dir string, now time.Time) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	defer d.Close()
	for {
		entries, err := d.ReadDir(256)
		for _, e := range entries {
			if !e.Type().IsRegular() || !isTempName(e.Name()) {
				continue
			}
			if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > staleTempAge {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
		if err != nil {
			return
		}
	}
}
