package tools

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// writeAtomic replaces the file at path with data, or creates it with mode
// perm: data goes to a temporary file in the same folder, which is then
// renamed over path, so that path never holds half of it. An existing
// file keeps its permissions; a symbolic link is followed, not replaced.
func writeAtomic(path string, data []byte, perm fs.FileMode) error {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	if info, err := os.Stat(path); err == nil {
		if !info.Mode().IsRegular() {
			return &fs.PathError{Op: "write", Path: path, Err: errors.New("not a regular file")}
		}
		perm = info.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".mm-*.tmp")
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	ok = true
	return nil
}
