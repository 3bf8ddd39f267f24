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
	docs, problems := Read(cwd, noenv)
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
	docs, _ := Read(sub, noenv)
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
	docs, _ := Read(filepath.Join(root, "a", "b"), noenv)
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
	docs, problems := Read(dir, noenv)
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
	docs, problems := Read(filepath.Join(root, "app"), noenv)
	if len(docs) != 1 || docs[0].Name != "app/AGENTS.md" || docs[0].Text != "Be kind." {
		t.Errorf("docs %+v", docs)
	}
	want := "AGENTS.md: a link to " + filepath.Join(base, ".ssh", "id_rsa") + ", outside the project (" + root + "): not read"
	if len(problems) != 1 || problems[0] != want {
		t.Errorf("problems %q\nwant %q", problems, want)
	}
}

func noenv(string) string { return "" }

// A folder's instructions are its AGENTS.md, else its CLAUDE.md, else its
// GEMINI.md: one file a folder, named as it is.
func TestReadOtherAgentsFiles(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".git", "HEAD"), "")
	write(t, filepath.Join(root, "CLAUDE.md"), "claude rules")
	write(t, filepath.Join(root, "a", "GEMINI.md"), "gemini rules")
	write(t, filepath.Join(root, "a", "b", "AGENTS.md"), "agents rules")
	write(t, filepath.Join(root, "a", "b", "CLAUDE.md"), "never read: the folder has an AGENTS.md")
	docs, problems := Read(filepath.Join(root, "a", "b"), noenv)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	var got []string
	for _, d := range docs {
		got = append(got, d.Name+": "+d.Text)
	}
	want := "CLAUDE.md: claude rules|a/GEMINI.md: gemini rules|a/b/AGENTS.md: agents rules"
	if strings.Join(got, "|") != want {
		t.Errorf("docs %q\nwant %q", got, want)
	}
}

// The person's own AGENTS.md, in their mm folder, comes first, named as
// they write it; a link out of that folder is not read.
func TestReadTheirOwn(t *testing.T) {
	home, _ := filepath.EvalSymlinks(t.TempDir())
	env := func(k string) string { return map[string]string{"HOME": home}[k] }
	own := filepath.Join(home, ".config", "mm")
	write(t, filepath.Join(own, "AGENTS.md"), "my habits")
	project := filepath.Join(home, "src", "p")
	write(t, filepath.Join(project, ".git", "HEAD"), "")
	write(t, filepath.Join(project, "AGENTS.md"), "the project's")
	docs, problems := Read(project, env)
	want := "# Project instructions (AGENTS.md)\n\nThe nearest file comes last and wins where they disagree.\n\n" +
		"## ~/.config/mm/AGENTS.md\n\nmy habits\n\n## AGENTS.md\n\nthe project's"
	if got := Prompt(docs); got != want || len(problems) > 0 {
		t.Errorf("Prompt:\n%s\nwant:\n%s\nproblems %q", got, want, problems)
	}

	os.Remove(filepath.Join(own, "AGENTS.md"))
	write(t, filepath.Join(home, "secret"), "KEY")
	if err := os.Symlink("../../secret", filepath.Join(own, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	docs, problems = Read(project, env)
	wantProblem := "~/.config/mm/AGENTS.md: a link to " + filepath.Join(home, "secret") + ", outside your mm folder (" + own + "): not read"
	if len(docs) != 1 || len(problems) != 1 || problems[0] != wantProblem {
		t.Errorf("docs %+v, problems %q\nwant %q", docs, problems, wantProblem)
	}
}
