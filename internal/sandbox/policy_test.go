package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// place is a home, a project and a temporary folder of their own, so that
// "outside the workspace" is a folder no mode allows.
type place struct {
	base, home, proj, tmp, cache string
}

func newPlace(t *testing.T) place {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := place{base: base, home: filepath.Join(base, "home"), proj: filepath.Join(base, "home", "proj"),
		tmp: filepath.Join(base, "tmp"), cache: filepath.Join(base, "home", ".cache")}
	for _, d := range []string{p.proj, p.tmp, p.cache} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("TMPDIR", p.tmp)
	t.Setenv("XDG_CACHE_HOME", p.cache)
	t.Setenv("HOME", p.home)
	return p
}

func (pl place) policy(t *testing.T, mode Mode, network bool, support Support) *Policy {
	t.Helper()
	p, err := open(Spec{Mode: mode, Network: network, Cwd: pl.proj}, support)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

var landlockV7 = Support{ABI: 7}

// CheckWrite refuses what the kernel would, symbolic links and ".." taken
// as the kernel takes them.
func TestCheckWrite(t *testing.T) {
	pl := newPlace(t)
	if err := os.Symlink(pl.home, filepath.Join(pl.proj, "planted")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(pl.home, "later"), filepath.Join(pl.proj, "dangling")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(pl.proj, "up")); err != nil {
		t.Fatal(err)
	}
	outside := "sandbox: writing outside " + pl.proj + " is not allowed in workspace mode"
	ws := pl.policy(t, Workspace, true, landlockV7)
	for _, tc := range []struct {
		path, err string
	}{
		{"f.txt", ""},
		{"new/deep/f.txt", ""},
		{"../.bashrc", outside},
		{"planted/.bashrc", outside},
		{"dangling", outside},
		{"up/.ssh/authorized_keys", outside},
		{"new/../../x", outside},
		{"/proc/self/root" + pl.home + "/x", outside},
		{pl.tmp + "/scratch", ""},
		{pl.cache + "/go-build/x", ""},
		{pl.base + "/elsewhere", outside},
	} {
		path := tc.path
		if !filepath.IsAbs(path) {
			path = pl.proj + "/" + path
		}
		if got := errText(ws.CheckWrite(path)); got != tc.err {
			t.Errorf("workspace: CheckWrite(%s) = %q, want %q", tc.path, got, tc.err)
		}
	}

	ro := pl.policy(t, ReadOnly, true, landlockV7)
	readOnly := "sandbox: writing is not allowed in read-only mode; only $TMPDIR is writable"
	for _, path := range []string{pl.proj + "/f.txt", pl.tmp + "/x", pl.cache + "/x"} {
		if got := errText(ro.CheckWrite(path)); got != readOnly {
			t.Errorf("read-only: CheckWrite(%s) = %q, want %q", path, got, readOnly)
		}
	}
	if err := ro.CheckWrite(filepath.Join(ro.temp, "x")); err != nil {
		t.Errorf("read-only: its own temporary folder: %v", err)
	}
	if got := ro.Environ([]string{"A=1", "TMPDIR=/tmp"}); len(got) != 2 || got[1] != "TMPDIR="+ro.temp {
		t.Errorf("read-only: Environ = %q", got)
	}

	off := pl.policy(t, Off, true, landlockV7)
	if err := off.CheckWrite(pl.home + "/.bashrc"); err != nil {
		t.Errorf("off: %v", err)
	}
}

// An asked agent's folders are its own kept within its asker's.
func TestCeilingBoundsFolders(t *testing.T) {
	pl := newPlace(t)
	asker := pl.policy(t, Workspace, false, landlockV7)
	sub := filepath.Join(pl.proj, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	c := asker.Ceiling()
	child, err := open(Spec{Mode: Off, Network: true, Cwd: pl.home, Write: []string{"/"}}.Tighten(&c), landlockV7)
	if err != nil {
		t.Fatal(err)
	}
	if child.Mode() != Workspace || child.Network() {
		t.Fatalf("child = %s, network %v", child.Mode(), child.Network())
	}
	if err := child.CheckWrite(sub + "/f"); err != nil {
		t.Errorf("within both: %v", err)
	}
	if err := child.CheckWrite(pl.home + "/f"); err == nil {
		t.Errorf("the child's own workspace, outside its asker's, was writable")
	}
}

// Honest when it cannot: what the kernel does not enforce is said at start
// and never shown as in force.
func TestStatusAndWarnings(t *testing.T) {
	pl := newPlace(t)
	none := Support{Why: "this kernel has no Landlock, or a container forbids it (landlock_create_ruleset: function not implemented)"}
	for _, tc := range []struct {
		name     string
		mode     Mode
		network  bool
		support  Support
		status   string
		warnings []string
	}{
		{"all enforced", Workspace, false, landlockV7, "sandbox: workspace, network off", nil},
		{"off", Off, true, landlockV7, "sandbox: off, network on", nil},
		{"network alone", Off, false, landlockV7, "sandbox: off, network off", nil},
		{"no network rules", ReadOnly, false, Support{ABI: 3}, "sandbox: read-only, network on",
			[]string{"sandbox: network off is not enforced: this kernel's Landlock (ABI 3) has no network rules"}},
		{"no Landlock", Workspace, false, none, "sandbox: workspace for write_file and edit_file only, network on", []string{
			"sandbox: workspace is not enforced for bash: this kernel has no Landlock, or a container forbids it (landlock_create_ruleset: function not implemented); write_file and edit_file still keep to it",
			"sandbox: network off is not enforced: this kernel has no Landlock, or a container forbids it (landlock_create_ruleset: function not implemented)",
		}},
	} {
		p := pl.policy(t, tc.mode, tc.network, tc.support)
		if got := p.Status(); got != tc.status {
			t.Errorf("%s: Status = %q, want %q", tc.name, got, tc.status)
		}
		got := p.Warnings()
		if len(got) != len(tc.warnings) {
			t.Errorf("%s: Warnings = %q, want %q", tc.name, got, tc.warnings)
			continue
		}
		for i := range got {
			if got[i] != tc.warnings[i] {
				t.Errorf("%s: warning %d = %q, want %q", tc.name, i, got[i], tc.warnings[i])
			}
		}
	}
}
