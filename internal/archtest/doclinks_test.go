package archtest

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// mdLink is a markdown link's target, "](target)"; a target with a scheme
// (https:, mailto:) leads outside the repository and is not checked.
var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	hasScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	codeSpan  = regexp.MustCompile("`[^`]*`")
	heading   = regexp.MustCompile(`^#{1,6}[ \t]+(.*?)[ \t#]*$`)
)

// prose returns the lines of a markdown text that are not in a fenced
// block: where its links and headings are.
func prose(text string) []string {
	var out []string
	fenced := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out = append(out, l)
		}
	}
	return out
}

// slug is a heading's anchor as GitHub makes it: lower case, letters,
// digits, '-' and '_' kept, spaces made '-', every other character dropped.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// anchors returns the anchors of text's headings; a repeated one gets -1,
// -2, … as GitHub numbers them.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range prose(text) {
		m := heading.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		s := slug(m[1])
		if n, ok := seen[s]; ok {
			seen[s] = n + 1
			out[fmt.Sprintf("%s-%d", s, n+1)] = true
			continue
		}
		seen[s] = 0
		out[s] = true
	}
	return out
}

// brokenLinks returns a line for each relative link of the markdown file
// name that leads to no file of files, or to no heading of a markdown
// file: "<name>: <target>: <why>". read gives a file's text.
func brokenLinks(name string, files []string, read func(string) string) []string {
	var out []string
	for _, l := range prose(read(name)) {
		for _, m := range mdLink.FindAllStringSubmatch(codeSpan.ReplaceAllString(l, ""), -1) {
			target := m[1]
			if hasScheme.MatchString(target) {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			to := name
			if file != "" {
				to = path.Join(path.Dir(name), file)
			}
			switch {
			case !slices.Contains(files, to) && !slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, to+"/") }):
				out = append(out, fmt.Sprintf("%s: %s: no such file or folder", name, target))
			case frag != "" && strings.HasSuffix(to, ".md") && !anchors(read(to))[frag]:
				out = append(out, fmt.Sprintf("%s: %s: no heading %q in %s", name, target, frag, to))
			}
		}
	}
	return out
}

func TestBrokenLinks(t *testing.T) {
	pages := map[string]string{
		"docs/a.md":  "# A page\n\n## Why is it so?\n\n## The ⚙ block\n\n## Why is it so?\n\n## `mm -p`\n\n```\n## not a heading\n```\n",
		"docs/b.md":  "",
		"examples/x": "",
	}
	files := []string{"docs/a.md", "docs/b.md", "examples/x/main.go"}
	tests := []struct {
		name, text string
		want       []string
	}{
		{"a file and its headings", "# Here\n[a](a.md) [q](a.md#why-is-it-so) [q2](a.md#why-is-it-so-1) [g](a.md#the--block) [p](a.md#mm--p) [top](#here)", nil},
		{"a folder, a web page", "[x](../examples/x) [w](https://example.com/#nope)", nil},
		{"in code, not a link", "`[a](gone.md)`\n```\n[a](gone.md)\n```\n", nil},
		{"a file gone", "[g](gone.md)", []string{"docs/t.md: gone.md: no such file or folder"}},
		{"a heading gone", "[n](a.md#not-a-heading)", []string{`docs/t.md: a.md#not-a-heading: no heading "not-a-heading" in docs/a.md`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read := func(name string) string {
				if name == "docs/t.md" {
					return tt.text
				}
				return pages[name]
			}
			if got := brokenLinks("docs/t.md", append(files, "docs/t.md"), read); !slices.Equal(got, tt.want) {
				t.Errorf("brokenLinks:\ngot  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestDocLinks: every relative link of a tracked markdown file leads to a
// tracked file or folder, and a #fragment into a markdown file to one of
// its headings — so that a page split, moved or retitled leaves no link
// behind.
func TestDocLinks(t *testing.T) {
	files := trackedFiles(t)
	texts := map[string]string{}
	read := func(name string) string {
		if s, ok := texts[name]; ok {
			return s
		}
		b, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		texts[name] = string(b)
		return texts[name]
	}
	for _, name := range files {
		if !strings.HasSuffix(name, ".md") {
			continue
		}
		for _, line := range brokenLinks(name, files, read) {
			t.Error(line)
		}
	}
}
