package reference

import (
	"fmt"
	"strings"
)

// Table writes the index as the markdown table of docs/explanation/testing.md:
// one table per section of the reference, a line per unit, what holds it.
func Table(rows []Row, units []Unit) string {
	section, block := map[string]string{}, map[string]bool{}
	for _, u := range units {
		section[u.ID] = u.Section
		block[u.ID] = u.Lang != ""
	}
	var b strings.Builder
	current := "\x00"
	for _, r := range rows {
		if s := section[r.ID]; s != current {
			current = s
			fmt.Fprintf(&b, "\n**%s**\n\n| Unit | The reference says | Held by |\n|---|---|---|\n", s)
		}
		var held []string
		for _, h := range r.Held {
			held = append(held, "`"+h.String()+"`")
		}
		for _, g := range r.Gaps {
			held = append(held, "**no test yet:** "+g)
		}
		for _, n := range r.Notes {
			held = append(held, "*nothing to hold:* "+n)
		}
		id := r.ID[strings.Index(r.ID, "/")+1:]
		text := cell(r.Text)
		if block[r.ID] {
			// An example's <placeholders> are no HTML: a code span.
			text = "`` " + text + " ``"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", id, text, cell(strings.Join(held, "<br>")))
	}
	b.WriteString("\n")
	return b.String()
}

// cell makes text one cell of a table: a row of the reference shows its
// cells separated by " · ", and a pipe is escaped.
func cell(text string) string {
	if strings.HasPrefix(text, "|") {
		text = strings.Join(Cells(text), " · ")
	}
	text = strings.ReplaceAll(text, `\|`, "|")
	return strings.ReplaceAll(text, "|", `\|`)
}
