package sessions

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Dir is the folder of the saved sessions: $XDG_STATE_HOME/mm/sessions,
// or ~/.local/state/mm/sessions when XDG_STATE_HOME is unset or not
// absolute (as the XDG base directory specification says); "" when HOME
// is not absolute either: there is no such folder.
func Dir(getenv func(string) string) string {
	if state := getenv("XDG_STATE_HOME"); filepath.IsAbs(state) {
		return filepath.Join(state, "mm", "sessions")
	}
	if home := getenv("HOME"); filepath.IsAbs(home) {
		return filepath.Join(home, ".local", "state", "mm", "sessions")
	}
	return ""
}

// dirMode and fileMode keep prompts, which hold secrets, to their owner.
const (
	dirMode  fs.FileMode = 0o700
	fileMode fs.FileMode = 0o600
)

// ensureDir makes dir (and its parents) if needed, refuses a folder of
// another user and takes away what others may do in it.
func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return fmt.Errorf("making the sessions folder: %w", err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("making the sessions folder: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: not a folder: mm saves its sessions there (move it away)", dir)
	}
	if err := ownedByMe(dir, fi); err != nil {
		return err
	}
	if fi.Mode().Perm()&^dirMode != 0 {
		if err := os.Chmod(dir, dirMode); err != nil {
			return fmt.Errorf("%s: others may read it and mm cannot make it private: %w", dir, err)
		}
	}
	return nil
}

// checkFile refuses what is not a regular file of this user and makes a
// file others could read private again. It returns a notice when it did.
func checkFile(path string, fi fs.FileInfo) (string, error) {
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s: not a regular file: mm reads only the session files it wrote", path)
	}
	if err := ownedByMe(path, fi); err != nil {
		return "", err
	}
	if fi.Mode().Perm()&^fileMode == 0 {
		return "", nil
	}
	if err := os.Chmod(path, fileMode); err != nil {
		return "", fmt.Errorf("%s: others may read it and mm cannot make it private: %w", path, err)
	}
	return fmt.Sprintf("%s: others could read it (mode %04o): made it private (0600)", path, fi.Mode().Perm()), nil
}
