package reference

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// Unit is one contract of the reference: a table row, a sentence of a
// paragraph, a list item or a fenced block, with the reference's own text.
type Unit struct {
	ID      string // <section>/<key>, stable while the section and the unit's first words are
	Section string // the innermost heading, as written
	Text    string // the source text, on one line: a block's lines joined by blockJoin
	Lang    string // a fenced block's language ("yaml", "json", "text"); "" for the rest
}

// File is the reference's copy, relative to the module's root.
const File = "internal/reference/testdata/hooks-reference.md"

// Read reads the units of the reference's copy; root is the module's root
// (a package's tests give the path from their folder: "..", "../..").
func Read(root string) ([]Unit, error) {
	b, err := os.ReadFile(filepath.Join(root, File))
	if err != nil {
		return nil, fmt.Errorf("read the hooks reference: %w", err)
	}
	return Units(string(b))
}

// Blocks returns the fenced blocks of the section named, in the language
// given, each as its lines: the examples a test runs as they are written.
func Blocks(units []Unit, section, lang string) [][]string {
	var out [][]string
	for _, u := range units {
		if u.Section == section && u.Lang == lang {
			out = append(out, strings.Split(u.Text, blockJoin))
		}
	}
	return out
}

// blockJoin joins the lines of a fenced block into a unit's one line; the
// index (testdata/rows.tsv) holds one unit per line.
const blockJoin = " ↵ "

// Units reads the reference's markdown into its units, in the order they
// are written. What precedes the first "## " heading (the title and the page's
// own preamble) is not a contract of the hooks and is left out.
func Units(markdown string) ([]Unit, error) {
	var (
		units   []Unit
		section string
		para    []string // the lines of the paragraph or list item being read
		item    bool     // para is a list item
		fence   []string // the lines of the fenced block being read
		lang    string   // its language
		inFence bool
		seen    = map[string]int{}
	)
	add := func(key, text, lang string) {
		id := slug(strings.SplitN(section, " (", 2)[0], 0) + "/" + slug(key, 48)
		seen[id]++
		if n := seen[id]; n > 1 {
			id = fmt.Sprintf("%s-%d", id, n)
		}
		units = append(units, Unit{ID: id, Section: section, Text: text, Lang: lang})
	}
	flush := func() {
		if len(para) == 0 {
			return
		}
		text := strings.Join(para, " ")
		para = nil
		if item {
			add(text, text, "")
			return
		}
		for _, s := range sentences(text) {
			add(s, s, "")
		}
	}
	sc := bufio.NewScanner(strings.NewReader(markdown))
	started := false
	line := 0
	for sc.Scan() {
		line++
		l := sc.Text()
		if strings.Contains(l, blockJoin) {
			return nil, fmt.Errorf("line %d: %q is this package's block separator; change blockJoin in units.go", line, blockJoin)
		}
		if inFence {
			if strings.HasPrefix(l, "```") {
				inFence = false
				if started {
					add("block "+firstWords(fence), strings.Join(fence, blockJoin), lang)
				}
				fence = nil
				continue
			}
			fence = append(fence, l)
			continue
		}
		switch t := strings.TrimSpace(l); {
		case strings.HasPrefix(l, "```"):
			flush()
			inFence = true
			lang = strings.TrimSpace(strings.TrimPrefix(l, "```"))
		case strings.HasPrefix(l, "#"):
			flush()
			level := len(l) - len(strings.TrimLeft(l, "#"))
			if level >= 2 {
				started = true
				section = strings.TrimSpace(l[level:])
			}
		case !started:
		case t == "":
			flush()
		case strings.HasPrefix(t, "|"):
			flush()
			cells := Cells(t)
			if len(cells) == 0 || strings.Trim(strings.Join(cells, ""), "-: ") == "" {
				continue // the separator under the header
			}
			if prev := strings.TrimSpace(previous(markdown, line)); !strings.HasPrefix(prev, "|") {
				continue // the header: the line after it is the separator
			}
			add(cells[0], t, "")
		case strings.HasPrefix(t, "- "):
			flush()
			item = true
			para = append(para, strings.TrimPrefix(t, "- "))
		default:
			if len(para) == 0 {
				item = false
			}
			para = append(para, t)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the reference: %w", err)
	}
	if inFence {
		return nil, fmt.Errorf("the fenced block that ends the reference is not closed")
	}
	flush()
	return units, nil
}

// previous returns line n-1 (lines counted from 1) of text.
func previous(text string, n int) string {
	lines := strings.Split(text, "\n")
	if n-2 < 0 || n-2 >= len(lines) {
		return ""
	}
	return lines[n-2]
}

// Cells splits a table row into its cells; a pipe written `\|` stays inside
// its cell.
func Cells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	row = strings.TrimSuffix(row, "|")
	var cells []string
	var b strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			b.WriteString(`\|`)
			i++
		case row[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(row[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

// sentences splits a paragraph after a '.', '!' or '?' (and any closing
// '**', '`' or ')') followed by a space and a capital, a backquote, '*' or
// '(' — the reference's sentences start so, and no abbreviation of it does.
func sentences(p string) []string {
	var out []string
	start := 0
	for i := 0; i < len(p); i++ {
		if c := p[i]; c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < len(p) && strings.ContainsRune("*`)", rune(p[j])) {
			j++
		}
		if j+1 >= len(p) || p[j] != ' ' {
			continue
		}
		next := rune(p[j+1])
		if unicode.IsUpper(next) || strings.ContainsRune("`*(", next) {
			out = append(out, strings.TrimSpace(p[start:j]))
			start = j + 1
			i = j
		}
	}
	if rest := strings.TrimSpace(p[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// firstWords names a fenced block by its first non-blank line.
func firstWords(lines []string) string {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}

// slug lower-cases s and keeps its letters and digits, a '-' between words,
// cut at a word's end after at most max bytes (0: no cut).
func slug(s string, max int) string {
	var words []string
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
			continue
		}
		if b.Len() > 0 {
			words = append(words, b.String())
			b.Reset()
		}
	}
	if b.Len() > 0 {
		words = append(words, b.String())
	}
	out := ""
	for _, w := range words {
		if max > 0 && out != "" && len(out)+1+len(w) > max {
			break
		}
		if out != "" {
			out += "-"
		}
		out += w
	}
	return out
}
