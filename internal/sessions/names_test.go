package sessions_test

import (
	"testing"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/sessions"
)

// TestNames: a session of a folder can be named, found by its name there
// (not in another folder), listed with it, and named anew (it loses the
// old name); a name another session holds, or that is no name, is
// refused.
func TestNames(t *testing.T) {
	dir := t.TempDir()
	q := llm.Message{Role: llm.RoleUser, Content: "one"}
	a := newSession(t, dir, false, q)
	b := newSession(t, dir, false, q)
	if err := sessions.Name(dir, "/work/p", a.ID(), "fix-build"); err != nil {
		t.Fatal(err)
	}
	if id, ok := sessions.Named(dir, "/work/p", "fix-build"); !ok || id != a.ID() {
		t.Errorf("Named = %q, %v; want %s", id, ok, a.ID())
	}
	if _, ok := sessions.Named(dir, "/work/q", "fix-build"); ok {
		t.Error("a name of /work/p found in /work/q")
	}
	err := sessions.Name(dir, "/work/p", b.ID(), "fix-build")
	if want := `"fix-build" already names session ` + a.ID() + ` of this folder: give another name`; err == nil || err.Error() != want {
		t.Errorf("a name taken: %v\nwant %s", err, want)
	}
	list, _ := sessions.List(dir, "/work/p", false)
	for _, s := range list {
		if want := map[string]string{a.ID(): "fix-build"}[s.ID]; s.Name != want {
			t.Errorf("%s listed with the name %q, want %q", s.ID, s.Name, want)
		}
	}
	if err := sessions.Name(dir, "/work/p", a.ID(), "v2.0_final"); err != nil {
		t.Fatal(err)
	}
	if _, ok := sessions.Named(dir, "/work/p", "fix-build"); ok {
		t.Error("the old name still names it")
	}
	if id, ok := sessions.Named(dir, "/work/p", "v2.0_final"); !ok || id != a.ID() {
		t.Errorf("the new name: %q, %v", id, ok)
	}
	for _, bad := range []string{"", "-x", "two words", "a/b", string(make([]byte, 65))} {
		if err := sessions.CheckName(bad); err == nil {
			t.Errorf("CheckName(%q) = nil", bad)
		}
	}
	const want = `"two words" cannot name a session: give letters, digits, '-', '_' and '.', at most 64, not starting with '-' (as fix-build)`
	if err := sessions.CheckName("two words"); err.Error() != want {
		t.Errorf("CheckName: %v", err)
	}
}
