package commandfiles

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		folder := filepath.Dir(p)
		if strings.HasSuffix(name, "/") {
			folder = p
		}
		if err := os.MkdirAll(folder, 0o755); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, "/") {
			continue
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// mine is mm's own commands, for the tests: /help and the /ask… family.
func mine(name string) (string, bool) {
	switch {
	case name == "help":
		return "/help is mm's own command", true
	case strings.HasPrefix(name, "ask-"):
		return "/ask-<agent> is mm's own command", true
	}
	return "", false
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"p/review.md":   "---\ndescription: Review the change, then say what to fix.\nargument-hint: <files>\n---\nReview $ARGUMENTS.\n",
		"p/plain.md":    "# Explain the build\n\nExplain how this project builds.\n",
		"p/help.md":     "mine",
		"p/ask-me.md":   "mine",
		"p/my_cmd.md":   "underscores are not a command's",
		"p/notes.txt":   "not a command file",
		"p/.hidden.md":  "skipped",
		"p/sub/":        "",
		"p/model.md":    "---\ndescription: x\nmodel: claude-3\n---\n",
		"p/tabbed.md":   "---\ndescription: x\n\targument-hint: y\n---\n",
		"own/review.md": "---\ndescription: Mine.\n---\n",
		"own/haiku.md":  "---\ndescription: >-\n  Answer in\n  a haiku.\n---\nA haiku on $ARGUMENTS.",
	})
	folders := []Folder{{Dir: filepath.Join(dir, "p"), Root: dir}, {Dir: filepath.Join(dir, "own"), Root: dir}, {Dir: filepath.Join(dir, "absent"), Root: dir}}
	show := func(p string) string { rel, _ := filepath.Rel(dir, p); return rel }
	set, problems := Find(folders, mine, show)
	var got []string
	for _, c := range set.List() {
		got = append(got, c.Usage()+": "+c.Description)
	}
	want := []string{"/haiku: Answer in a haiku.", "/plain: Explain the build", "/review <files>: Review the change, then say what to fix."}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantProblems := []string{
		"command /ask-me (p/ask-me.md): /ask-<agent> is mm's own command, which runs instead: rename the file",
		"command /help (p/help.md): /help is mm's own command, which runs instead: rename the file",
		`command p/model.md:3: front matter: unknown key "model" (known: description, argument-hint)`,
		"command file p/my_cmd.md: /my_cmd cannot be typed as a command: name it with letters, digits and hyphens (at most 64)",
		"command p/tabbed.md:3:1: front matter: found a tab character that cannot start any token\n" +
			"  3 | →argument-hint: y\n" +
			"    | ^\n" +
			"  hint: indent with spaces: YAML does not allow a tab in the indentation (→ is a tab)",
		"command /review: p/review.md and own/review.md both name it; keeping the first",
	}
	if strings.Join(problems, "\n") != strings.Join(wantProblems, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(wantProblems, "\n"))
	}
	if _, ok := set.Get("help"); ok {
		t.Error("a file shadowed by mm's own /help is offered")
	}
}

func TestPrompt(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"review.md": "---\ndescription: Review.\n---\nReview $ARGUMENTS, then $ARGUMENTS again.\n@notes.md\n",
		"plain.md":  "Explain the build.\n",
		"empty.md":  "---\ndescription: nothing\n---\n\n",
		"args.md":   "---\nargument-hint: <question>\n---\n$ARGUMENTS\n",
	})
	for _, tc := range []struct {
		name, file, args, want, err string
	}{
		{"every $ARGUMENTS replaced, the lines kept", "review.md", "main.go", "Review main.go, then main.go again.\n@notes.md", ""},
		{"what the arguments hold is not read again", "review.md", "$ARGUMENTS $HOME", "Review $ARGUMENTS $HOME, then $ARGUMENTS $HOME again.\n@notes.md", ""},
		{"no arguments", "review.md", "", "Review , then  again.\n@notes.md", ""},
		{"no $ARGUMENTS: the arguments follow", "plain.md", "  for arm64 ", "Explain the build.\n\nfor arm64", ""},
		{"no $ARGUMENTS, no arguments", "plain.md", "", "Explain the build.", ""},
		{"a file that says nothing", "empty.md", "x", "", "/empty: " + filepath.Join(dir, "empty.md") + " says nothing: write the question it stands for"},
		{"only the arguments, none given", "args.md", " ", "", "/args is only what follows it: give that (/args <question>)"},
		{"a file gone since", "gone.md", "", "", "/gone: cannot read " + filepath.Join(dir, "gone.md") + ": no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Command{Name: strings.TrimSuffix(tc.file, Ext), File: filepath.Join(dir, tc.file)}
			got, err := c.Prompt(tc.args)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("err = %v, want %s", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("Prompt = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"review": true, "Review": true, "fix-issue-2": true, "a": true, strings.Repeat("a", 64): true,
		"": false, "-a": false, "a_b": false, "a.b": false, "ré": false, strings.Repeat("a", 65): false,
	} {
		if ValidName(name) != want {
			t.Errorf("ValidName(%q) = %v", name, !want)
		}
	}
}

// A command file that is a link out of its root is skipped, said once.
func TestFindStaysInside(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"project/.mm/commands/": "", "secret.md": "KEY"})
	if err := os.Symlink("../../../secret.md", filepath.Join(dir, "project/.mm/commands/leak.md")); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "project")
	set, problems := Find(Folders(root, root, func(string) string { return "" }), mine, func(p string) string { return p })
	want := "command file " + filepath.Join(root, ".mm/commands/leak.md") + ": a link to " + filepath.Join(dir, "secret.md") + ", outside " + root + ": skipped (a command stays in its project or config folder)"
	if len(set.List()) != 0 || len(problems) != 1 || problems[0] != want {
		t.Errorf("commands %v, problems %q\nwant %q", set.List(), problems, want)
	}
}
