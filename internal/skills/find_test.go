package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/strictyaml"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"team/pdf/SKILL.md":     "---\nname: pdf\ndescription: Extract text and tables from PDF files.\nlicense: MIT\n---\n# PDF\n",
		"team/review/SKILL.md":  "---\r\nname: review\r\ndescription: >-\r\n  Review a change\r\n  for bugs.\r\n---\r\n",
		"team/notes.txt":        "a file beside the skills is ignored",
		"team/.hidden/SKILL.md": "not read",
		"team/empty/":           "",
		"team/tabbed/SKILL.md":  "---\nname: tabbed\n\tdescription: x\n---\n",
		"local/pdf/SKILL.md":    "---\nname: pdf\ndescription: Another pdf.\n---\n",
		"local/bad/SKILL.md":    "no front matter",
	})
	folders := []Folder{
		{Dir: filepath.Join(dir, "team"), Given: true},
		{Dir: filepath.Join(dir, "local")},
		{Dir: filepath.Join(dir, "absent")},                    // an usual place that is not there: silent
		{Dir: filepath.Join(dir, "given-absent"), Given: true}, // named by the configuration
	}
	show := func(p string) string { rel, _ := filepath.Rel(dir, p); return rel }
	set, problems := Find(folders, show)
	if got := strings.Join(set.Names(), ","); got != "pdf,review" {
		t.Errorf("names = %s", got)
	}
	wantProblems := []string{
		"skill folder team/empty has no SKILL.md: not a skill (add one, or move the folder out of team)",
		// A syntax error: its excerpt under its line, as a config error's.
		"skill team/tabbed/SKILL.md:3:1: front matter: found a tab character that cannot start any token\n" +
			"  3 | →description: x\n" +
			"    | ^\n" +
			"  hint: indent with spaces: YAML does not allow a tab in the indentation (→ is a tab)",
		"skill local/bad/SKILL.md: no front matter: the file must start with a \"---\" line, then name: and description:, then \"---\"",
		"skill pdf: team/pdf/SKILL.md and local/pdf/SKILL.md both name it; keeping the first",
		"skills folder given-absent: no such file or directory",
	}
	if strings.Join(problems, "\n") != strings.Join(wantProblems, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(wantProblems, "\n"))
	}
	pdf, _ := set.Get("pdf")
	if pdf.Description != "Extract text and tables from PDF files." || pdf.File != filepath.Join(dir, "team/pdf/SKILL.md") {
		t.Errorf("pdf = %+v", pdf)
	}
	review, _ := set.Get("review")
	if got := review.ListLine(); got != "- review: Review a change for bugs." {
		t.Errorf("ListLine = %q", got)
	}
	if set.Banner() != "skills: 2" || (&Set{}).Banner() != "" {
		t.Errorf("banner %q", set.Banner())
	}
	if got := set.Unknown("xlsx").Error(); got != `no skill "xlsx" (known: pdf, review)` {
		t.Errorf("Unknown = %s", got)
	}
}

func TestFrontMatterErrors(t *testing.T) {
	long := strings.Repeat("d", MaxDescriptionLen+1)
	tests := []struct{ name, body, want string }{
		{"no opening", "# PDF\n", `SKILL.md: no front matter: the file must start with a "---" line, then name: and description:, then "---"`},
		{"no closing", "---\nname: pdf\n", `SKILL.md: the front matter has no closing "---" line within the file's first 16 KiB`},
		{"no name", "---\ndescription: d\n---\n", "SKILL.md: front matter: no name: give the skill a name (lowercase letters, digits and hyphens)"},
		{"bad name", "---\nname: My_Skill\ndescription: d\n---\n", `SKILL.md:2: front matter: name "My_Skill": want lowercase letters, digits and hyphens, at most 64 characters, no hyphen at either end or twice in a row`},
		{"no description", "---\nname: pdf\n---\n", "SKILL.md: front matter: skill pdf has no description: say in one line what it does and when to use it"},
		{"long description", "---\nname: pdf\ndescription: " + long + "\n---\n", "SKILL.md:3: front matter: skill pdf: description over 1024 characters"},
		{"name a list", "---\nname: [a]\ndescription: d\n---\n", "SKILL.md:2: front matter: name: want a string"},
		{"not yaml", "---\nname: pdf\n  description: : x\n---\n", "SKILL.md:3:16: front matter: found an invalid key for this map"},
		{"twice", "---\nname: a\nname: b\ndescription: d\n---\n", `SKILL.md:3: front matter: key "name" is given twice (first on line 2)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := frontMatter([]byte(tt.body))
			if err == nil || strictyaml.Located("SKILL.md", err) != tt.want {
				t.Errorf("got %s\nwant %s", strictyaml.Located("SKILL.md", err), tt.want)
			}
		})
	}
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"pdf": true, "pdf-2": true, "a": true, strings.Repeat("a", 64): true,
		"": false, "-a": false, "a-": false, "a--b": false, "A": false, "a_b": false, strings.Repeat("a", 65): false,
	} {
		if ValidName(name) != want {
			t.Errorf("ValidName(%q) = %v", name, !want)
		}
	}
}

// One skill linked into two folders (.agents/skills and .claude/skills,
// for two agents) is one skill, said nowhere.
func TestFindOneSkillLinkedTwice(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"shared/pdf/SKILL.md": "---\nname: pdf\ndescription: PDF files.\n---\n", ".claude/skills/": "", ".agents/skills/": ""})
	for _, d := range []string{".agents/skills", ".claude/skills"} {
		if err := os.Symlink(filepath.Join(dir, "shared", "pdf"), filepath.Join(dir, d, "pdf")); err != nil {
			t.Fatal(err)
		}
	}
	set, problems := Find(Folders(nil, dir, dir, func(string) string { return "" }), func(p string) string { return p })
	if set.Len() != 1 || len(problems) != 0 {
		t.Errorf("skills %v, problems %q", set.Names(), problems)
	}
	sk, _ := set.Get("pdf")
	if sk.Dir != filepath.Join(dir, ".agents/skills/pdf") {
		t.Errorf("pdf found in %s, want the first folder's", sk.Dir)
	}
}

func TestFolders(t *testing.T) {
	env := map[string]string{"HOME": "/home/me"}
	got := Folders([]string{"/cfg/skills"}, "/work/app", "/work", func(k string) string { return env[k] })
	want := []Folder{{Dir: "/cfg/skills", Given: true}, {Dir: "/work/app/.mm/skills", Root: "/work"},
		{Dir: "/work/app/.agents/skills", Root: "/work"}, {Dir: "/work/app/.claude/skills", Root: "/work"},
		{Dir: "/home/me/.config/mm/skills", Root: "/home/me/.config/mm"}}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	env["XDG_CONFIG_HOME"] = "/xdg"
	if got := Folders(nil, "/work", "/work", func(k string) string { return env[k] }); got[3].Dir != "/xdg/mm/skills" {
		t.Errorf("with XDG_CONFIG_HOME: %v", got)
	}
}

// A skills folder, a skill folder or a SKILL.md whose link leads out of the
// project (or out of the person's mm config folder) is skipped, with one
// line naming it and where it leads; links inside are followed.
func TestFindStaysInside(t *testing.T) {
	base := t.TempDir()
	base, _ = filepath.EvalSymlinks(base)
	project := filepath.Join(base, "project")
	write := func(p, body string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	skill := func(name string) string { return "---\nname: " + name + "\ndescription: d\n---\nbody\n" }
	write(filepath.Join(base, "elsewhere", "evil", "SKILL.md"), skill("evil"))
	write(filepath.Join(base, "elsewhere", "SKILL.md"), skill("linked"))
	write(filepath.Join(project, "shared", "good", "SKILL.md"), skill("good"))
	skills := filepath.Join(project, ".mm", "skills")
	os.MkdirAll(filepath.Join(skills, "linked"), 0o755)
	os.Symlink("../../shared/good", filepath.Join(skills, "good"))
	os.Symlink(filepath.Join(base, "elsewhere", "evil"), filepath.Join(skills, "evil"))
	os.Symlink(filepath.Join(base, "elsewhere", "SKILL.md"), filepath.Join(skills, "linked", "SKILL.md"))
	away := filepath.Join(base, "away")
	os.MkdirAll(filepath.Join(away, "x"), 0o755)
	os.Symlink(filepath.Join(base, "elsewhere"), filepath.Join(away, "skills"))

	rel := func(p string) string { r, _ := filepath.Rel(project, p); return r }
	set, problems := Find([]Folder{{Dir: skills, Root: project}, {Dir: filepath.Join(away, "skills"), Root: filepath.Join(away, "x")}}, rel)
	if names := set.Names(); len(names) != 1 || names[0] != "good" {
		t.Errorf("skills %v, want [good]", names)
	}
	want := []string{
		"skill folder .mm/skills/evil: a link to " + filepath.Join(base, "elsewhere", "evil") + ", outside " + project + ": skipped (a skill stays in its project or config folder)",
		"skill .mm/skills/linked/SKILL.md: a link to " + filepath.Join(base, "elsewhere", "SKILL.md") + ", outside " + project + ": skipped (a skill stays in its project or config folder)",
		"skills folder ../away/skills: a link to " + filepath.Join(base, "elsewhere") + ", outside " + filepath.Join(away, "x") + ": skipped (a skill stays in its project or config folder)",
	}
	if strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
}
