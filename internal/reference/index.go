package reference

import (
	"bufio"
	"fmt"
	"strings"
)

// Row is one line of the index (testdata/rows.tsv): a unit of the reference
// and what holds it.
type Row struct {
	ID    string
	Held  []Holder
	Text  string // the unit's text, as Units reads it
	Line  int    // in the index, for the failures
	Gaps  []string
	Notes []string // "none: …": the unit states nothing a test can hold
}

// Holder is a test that holds a row: a package's directory relative to the
// module's root, and the test's name as go test -run takes it
// (TestScripts/hook_display for a testscript file).
type Holder struct {
	Pkg, Test string
}

func (h Holder) String() string { return h.Pkg + " " + h.Test }

// ParseIndex reads the index: one row a line, "<id>\t<held by>\t<text>";
// <held by> is a list separated by "; " of "<package dir> <TestName>",
// "gap: <what no test holds yet>" and "none: <why nothing is to be held>".
// Blank lines and lines starting with "#" are comments.
func ParseIndex(src string) ([]Row, error) {
	var rows []Row
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	n := 0
	for sc.Scan() {
		n++
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) != 3 {
			return nil, fmt.Errorf("rows.tsv:%d: %d fields, want 3 (id, held by, text) separated by tabs", n, len(f))
		}
		r := Row{ID: f[0], Text: f[2], Line: n}
		for _, item := range strings.Split(f[1], "; ") {
			item = strings.TrimSpace(item)
			switch {
			case strings.HasPrefix(item, "gap: "):
				r.Gaps = append(r.Gaps, strings.TrimPrefix(item, "gap: "))
			case strings.HasPrefix(item, "none: "):
				r.Notes = append(r.Notes, strings.TrimPrefix(item, "none: "))
			default:
				pkg, test, ok := strings.Cut(item, " ")
				if !ok || !strings.HasPrefix(test, "Test") || strings.Contains(test, " ") {
					return nil, fmt.Errorf("rows.tsv:%d: %q is neither \"<package dir> <TestName>\", \"gap: …\" nor \"none: …\"", n, item)
				}
				r.Held = append(r.Held, Holder{Pkg: pkg, Test: test})
			}
		}
		if len(r.Held) == 0 && len(r.Gaps) == 0 && len(r.Notes) == 0 {
			return nil, fmt.Errorf("rows.tsv:%d: %s: held by nothing; name a test, or write gap: or none:", n, r.ID)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read rows.tsv: %w", err)
	}
	return rows, nil
}
