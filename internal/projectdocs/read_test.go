package projectdocs

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadFromRootToCwd(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "project")
	write(t, filepath.Join(top, "AGENTS.md"), "above the root: never read")
	write(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(root, "AGENTS.md"), "root rules\n")
	write(t, filepath.Join(root, "cmd", "AGENTS.md"), "") // empty: says nothing
	write(t, filepath.Join(root, "cmd", "mm", "AGENTS.md"), "mm rules\n")
	write(t, filepath.Join(root, "docs", "AGENTS.md"), "not on the way")
	cwd := filepath.Join(root, "cmd", "mm")
	docs, problems := Read(cwd)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	want := "# Project instructions (AGENTS.md)\n\nThe nearest file comes last and wins where they disagree.\n\n" +
		"## AGENTS.md\n\nroot rules\n\n## cmd/mm/AGENTS.md\n\nmm rules"
	if got := Prompt(docs); got != want {
		t.Errorf("Prompt:\n%s\nwant:\n%s", got, want)
	}
	if Root(cwd) != root {
		t.Errorf("Root = %s", Root(cwd))
	}
}

func TestReadWithoutGit(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "AGENTS.md"), "here")
	sub := filepath.Join(dir, "sub")
	write(t, filepath.Join(sub, "AGENTS.md"), "sub")
	// No .git above: the working directory alone.
	docs, _ := Read(sub)
	if len(docs) != 1 || docs[0].Name != "AGENTS.md" || docs[0].Text != "sub" {
		t.Errorf("docs = %+v", docs)
	}
	if Prompt(nil) != "" {
		t.Error("no docs, yet a prompt")
	}
}

func TestReadWorktreeGitFile(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".git"), "gitdir: /elsewhere\n")
	write(t, filepath.Join(root, "AGENTS.md"), "worktree")
	if got := Root(filepath.Join(root, "a", "b")); got != root {
		t.Errorf("Root = %s, want %s", got, root)
	}
}

func TestReadCap(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".git", "HEAD"), "")
	write(t, filepath.Join(root, "AGENTS.md"), "far away")
	write(t, filepath.Join(root, "a", "AGENTS.md"), strings.Repeat("a", 2000))
	write(t, filepath.Join(root, "a", "b", "AGENTS.md"), strings.Repeat("b", MaxBytes-1000))
	docs, _ := Read(filepath.Join(root, "a", "b"))
	got := Prompt(docs)
	// The nearest whole, the next cut to what is left, the farthest left out.
	for _, want := range []string{
		"## AGENTS.md\n\n[AGENTS.md (8 bytes) was left out: the files nearer the working directory filled mm's limit of 32 KiB for AGENTS.md files]\n\n## a/AGENTS.md\n\n" + strings.Repeat("a", 1000) + "\n\n[a/AGENTS.md was cut: 1000 bytes of 2.0 KiB left out",
		"## a/b/AGENTS.md\n\n" + strings.Repeat("b", MaxBytes-1000),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("prompt lacks %q", want[:80])
		}
	}
}

func TestReadNotRegular(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "AGENTS.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	docs, problems := Read(dir)
	if len(docs) != 0 || strings.Join(problems, "|") != "AGENTS.md: a named pipe, not a regular file, not read" {
		t.Errorf("docs %v, problems %q", docs, problems)
	}
}

// An AGENTS.md that is a link out of the project is not read, said once;
// one that links inside it is.
func TestReadStaysInTheProject(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "project")
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	os.MkdirAll(filepath.Join(root, "app"), 0o755)
	os.MkdirAll(filepath.Join(base, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(base, ".ssh", "id_rsa"), []byte("PRIVATE KEY"), 0o600)
	os.WriteFile(filepath.Join(root, "RULES.md"), []byte("Be kind."), 0o644)
	os.Symlink("../.ssh/id_rsa", filepath.Join(root, "AGENTS.md"))
	os.Symlink("../RULES.md", filepath.Join(root, "app", "AGENTS.md"))
	docs, problems := Read(filepath.Join(root, "app"))
	if len(docs) != 1 || docs[0].Name != "app/AGENTS.md" || docs[0].Text != "Be kind." {
		t.Errorf("docs %+v", docs)
	}
	want := "AGENTS.md: a link to " + filepath.Join(base, ".ssh", "id_rsa") + ", outside the project (" + root + "): not read"
	if len(problems) != 1 || problems[0] != want {
		t.Errorf("problems %q\nwant %q", problems, want)
	}
}
