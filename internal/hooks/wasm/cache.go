package wasm

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// The compilation cache on disk. Its layout:
//
//	<dir>/last-prune           stamp: when stale entries were last removed
//	<dir>/<hash>/used          touched by each process that runs the module
//	<dir>/<hash>/wazero-…/…    wazero's compiled code for the module
//
// <hash> names the module's content, so a rebuilt module gets a new folder
// and the old one ages out. A folder whose marker is older than cacheMaxAge
// is removed, at most once per pruneEvery, in the background.
const (
	cacheMaxAge = 30 * 24 * time.Hour
	pruneEvery  = 24 * time.Hour

	usedMarker  = "used"
	pruneStamp  = "last-prune"
	hashNameLen = 32
)

// DefaultCacheDir is where compiled modules are kept when Options.CacheDir
// is empty: the user's cache folder ($XDG_CACHE_HOME, else ~/.cache on
// Linux, ~/Library/Caches on macOS) followed by mm/wasm.
func DefaultCacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "mm", "wasm"), nil
}

// prepareCacheDir creates dir (0700) if needed and checks that it is safe
// to load native code from: a real folder, owned by this user, writable by
// no one else. Compiled code from the cache is executed, so a folder others
// could write to would let them run code as this user.
func prepareCacheDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return checkPrivate(dir)
}

func checkPrivate(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	if !ownedByMe(fi) {
		return fmt.Errorf("%s belongs to another user", dir)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		if err := os.Chmod(dir, fi.Mode().Perm()&^0o022); err != nil {
			return fmt.Errorf("%s is writable by others: %w", dir, err)
		}
	}
	return nil
}

// moduleCacheDir returns the folder holding the compiled code of the module
// whose content is bin, and marks it as used now.
func moduleCacheDir(root string, bin []byte) (string, error) {
	sum := sha256.Sum256(bin)
	dir := filepath.Join(root, hex.EncodeToString(sum[:])[:hashNameLen])
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	if err := checkPrivate(dir); err != nil {
		return "", err
	}
	return dir, touch(filepath.Join(dir, usedMarker))
}

// touch sets name's times to now, creating it empty if needed.
func touch(name string) error {
	now := time.Now()
	err := os.Chtimes(name, now, now)
	if errors.Is(err, fs.ErrNotExist) {
		var f *os.File
		if f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o600); err == nil {
			err = f.Close()
		}
	}
	return err
}

// prune removes the module folders of root that no run used for
// cacheMaxAge, unless that was done less than pruneEvery ago. Failures are
// ignored: a cache that cannot be pruned is still a cache.
func prune(root string, now time.Time) {
	stamp := filepath.Join(root, pruneStamp)
	if fi, err := os.Stat(stamp); err == nil && now.Sub(fi.ModTime()) < pruneEvery {
		return
	}
	if touch(stamp) != nil {
		return
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !isHashName(e.Name()) {
			continue
		}
		dir := filepath.Join(root, e.Name())
		fi, err := os.Stat(filepath.Join(dir, usedMarker))
		if errors.Is(err, fs.ErrNotExist) {
			fi, err = os.Stat(dir)
		}
		if err == nil && now.Sub(fi.ModTime()) > cacheMaxAge {
			os.RemoveAll(dir)
		}
	}
}

func isHashName(s string) bool {
	if len(s) != hashNameLen {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}
