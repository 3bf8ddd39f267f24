package wasm

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// tinyModule writes a valid command that does nothing, quick to compile.
func tinyModule(t testing.TB) string {
	return writeModule(t, "tiny.wasm", wasmBinary(typeVoid, oneFunc, exportStart, emptyBody))
}

// runOnce runs mod in a fresh Runtime with the given cache folder, as a new
// mm process would.
func runOnce(t testing.TB, cache, mod string) {
	t.Helper()
	r := New(Options{CacheDir: cache})
	defer r.Close(context.Background())
	if _, err := r.Run(t.Context(), Spec{Module: mod, Cwd: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
}

// cacheEntries lists the files under a module's cache folder, with their
// modification times.
func cacheEntries(t testing.TB, cache string) map[string]time.Time {
	t.Helper()
	files := map[string]time.Time{}
	filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if !d.IsDir() {
			fi, _ := d.Info()
			rel, _ := filepath.Rel(cache, p)
			files[filepath.ToSlash(rel)] = fi.ModTime()
		}
		return nil
	})
	return files
}

// TestCacheReused: the first process compiles and stores; the next loads
// what was stored.
func TestCacheReused(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "a", "cache")
	mod := tinyModule(t)
	runOnce(t, cache, mod)

	fi, err := os.Stat(cache)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("cache folder: %v, %v; want mode 0700", fi.Mode(), err)
	}
	first := cacheEntries(t, cache)
	var names []string
	for n := range first {
		names = append(names, n)
	}
	slices.Sort(names)
	// <hash>/used, <hash>/wazero-<version>-<arch>-<os>/<key>, last-prune
	if len(names) != 3 || filepath.Base(names[0]) != usedMarker || strings.Count(names[1], "/") != 2 || names[2] != pruneStamp {
		t.Fatalf("cache holds %v", names)
	}
	marker, code := names[0], names[1]

	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(cache, marker), past, past); err != nil {
		t.Fatal(err)
	}
	runOnce(t, cache, mod)
	second := cacheEntries(t, cache)
	if len(second) != 3 || !second[code].Equal(first[code]) {
		t.Errorf("the second process wrote the compiled code again: %v → %v", first, second)
	}
	if !second[marker].After(past.Add(time.Minute)) {
		t.Errorf("the second process did not mark the module used")
	}
}

// TestCacheBroken: a damaged entry is no failure: the module is compiled
// in memory and the damaged folder removed, for the next process to store
// afresh.
func TestCacheBroken(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "cache")
	mod := tinyModule(t)
	runOnce(t, cache, mod)
	var code string
	for n := range cacheEntries(t, cache) {
		if strings.Count(n, "/") == 2 { // <hash>/wazero-…/<key>
			code = n
		}
	}
	if code == "" {
		t.Fatal("no compiled code in the cache")
	}
	if err := os.WriteFile(filepath.Join(cache, code), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	runOnce(t, cache, mod)
	if _, err := os.Stat(filepath.Join(cache, filepath.Dir(filepath.Dir(code)))); !os.IsNotExist(err) {
		t.Errorf("the damaged module folder is still there (%v)", err)
	}
	runOnce(t, cache, mod)
	if _, ok := cacheEntries(t, cache)[code]; !ok {
		t.Errorf("the module was not stored again")
	}
}

// TestCacheUnusable: a cache folder that cannot be used is no failure.
func TestCacheUnusable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	mod := tinyModule(t)
	runOnce(t, file, mod)
	runOnce(t, filepath.Join(file, "below"), mod)

	if runtime.GOOS != "windows" {
		open := filepath.Join(dir, "open")
		if err := os.Mkdir(open, 0o777); err != nil {
			t.Fatal(err)
		}
		os.Chmod(open, 0o777)
		runOnce(t, open, mod)
		if fi, _ := os.Stat(open); fi.Mode().Perm() != 0o755 {
			t.Errorf("a cache folder others may write to kept mode %v", fi.Mode().Perm())
		}
	}
}

// TestPrune: module folders unused for 30 days go, at most once a day.
func TestPrune(t *testing.T) {
	root := t.TempDir()
	now := time.Now()
	mk := func(name string, used time.Time, marker bool) {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Join(dir, "wazero-dev"), 0o700); err != nil {
			t.Fatal(err)
		}
		if marker {
			if err := os.WriteFile(filepath.Join(dir, usedMarker), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			os.Chtimes(filepath.Join(dir, usedMarker), used, used)
		}
		os.Chtimes(dir, used, used)
	}
	old, recent := now.Add(-31*24*time.Hour), now.Add(-29*24*time.Hour)
	mk("0123456789abcdef0123456789abcdef", old, true)    // unused: goes
	mk("11111111111111111111111111111111", recent, true) // used lately: stays
	mk("22222222222222222222222222222222", old, false)   // no marker, old folder: goes
	mk("not-a-module", old, false)                       // not ours: stays

	prune(root, now)
	var left []string
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := []string{"11111111111111111111111111111111", pruneStamp, "not-a-module"}
	if !slices.Equal(left, want) {
		t.Errorf("after pruning: %v, want %v", left, want)
	}

	// Within a day, pruning again does nothing.
	mk("33333333333333333333333333333333", old, true)
	prune(root, now.Add(time.Hour))
	if _, err := os.Stat(filepath.Join(root, "33333333333333333333333333333333")); err != nil {
		t.Errorf("pruned twice in a day: %v", err)
	}
	prune(root, now.Add(25*time.Hour))
	if _, err := os.Stat(filepath.Join(root, "33333333333333333333333333333333")); !os.IsNotExist(err) {
		t.Errorf("not pruned a day later: %v", err)
	}
}

// TestDefaultCacheDir: under the user's cache folder.
func TestDefaultCacheDir(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("XDG_CACHE_HOME is read on Linux")
	}
	t.Setenv("XDG_CACHE_HOME", "/x/cache")
	if got, err := DefaultCacheDir(); err != nil || got != "/x/cache/mm/wasm" {
		t.Errorf("got %q, %v", got, err)
	}
}
