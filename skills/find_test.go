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

func TestFolders(t *testing.T) {
	env := map[string]string{"HOME": "/home/me"}
	got := Folders([]string{"/cfg/skills"}, "/work", func(k string) string { return env[k] })
	want := []Folder{{Dir: "/cfg/skills", Given: true}, {Dir: "/work/.mm/skills"}, {Dir: "/home/me/.config/mm/skills"}}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	env["XDG_CONFIG_HOME"] = "/xdg"
	if got := Folders(nil, "/work", func(k string) string { return env[k] }); got[1].Dir != "/xdg/mm/skills" {
		t.Errorf("with XDG_CONFIG_HOME: %v", got)
	}
}
