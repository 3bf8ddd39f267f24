package markdown

import (
	"strings"
	"unicode/utf8"
)

// flushTable renders the rows held: as a table when the second is a
// delimiter row (|---|:--:|), else as the lines of text they are.
func (s *Stream) flushTable() {
	rows := s.table
	s.table = nil
	if len(rows) == 0 {
		return
	}
	if len(rows) < 2 || !isDelimiterRow(rows[1]) {
		for _, r := range rows {
			spans, _ := inline(r, 0, true, Style{})
			for _, sp := range spans {
				s.emit(sp.Text, sp.Style)
			}
			s.out = append(s.out, Span{Text: "\n"})
		}
		return
	}
	align := cells(rows[1])
	var table [][][]Span
	for i, r := range rows {
		if i == 1 {
			continue
		}
		var row [][]Span
		for _, c := range cells(r) {
			st := Style{}
			if i == 0 {
				st = st.with(Bold)
			}
			spans, _ := inline(c, 0, true, st)
			row = append(row, spans)
		}
		table = append(table, row)
	}
	s.drawTable(table, align)
}

// drawTable writes the table's rows, the columns padded to their widest
// cell and aligned as the delimiter row says, with a line under the head.
func (s *Stream) drawTable(table [][][]Span, align []string) {
	cols := len(align)
	widths := make([]int, cols)
	for _, row := range table {
		for c := 0; c < cols && c < len(row); c++ {
			widths[c] = max(widths[c], width(row[c]))
		}
	}
	for i, row := range table {
		for c := 0; c < cols; c++ {
			var cell []Span
			if c < len(row) {
				cell = row[c]
			}
			if c > 0 {
				s.out = append(s.out, Span{Text: " │ ", Style: styleDim})
			}
			pad := widths[c] - width(cell)
			left := 0
			switch a := align[c]; {
			case strings.HasPrefix(a, ":") && strings.HasSuffix(a, ":"):
				left = pad / 2
			case strings.HasSuffix(a, ":"):
				left = pad
			}
			s.space(left)
			for _, sp := range cell {
				s.emit(sp.Text, sp.Style)
			}
			if c < cols-1 {
				s.space(pad - left)
			}
		}
		s.out = append(s.out, Span{Text: "\n"})
		if i == 0 {
			var b strings.Builder
			for c, w := range widths {
				if c > 0 {
					b.WriteString("─┼─")
				}
				b.WriteString(strings.Repeat("─", w))
			}
			s.out = append(s.out, Span{Text: b.String(), Style: styleDim}, Span{Text: "\n"})
		}
	}
}

func (s *Stream) space(n int) {
	if n > 0 {
		s.out = append(s.out, Span{Text: strings.Repeat(" ", n)})
	}
}

// width is the number of characters of spans: a rune a column, which is
// right for the text of most tables.
func width(spans []Span) int {
	n := 0
	for _, sp := range spans {
		n += utf8.RuneCountInString(sp.Text)
	}
	return n
}

// cells splits a table row into its cells, trimmed; a \| is a bar inside
// a cell.
func cells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
		row = row[:len(row)-1]
	}
	var out []string
	start := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			out = append(out, strings.TrimSpace(row[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(row[start:]))
}

// isDelimiterRow says row is a table's delimiter row: cells of dashes,
// with a colon at either end for the alignment.
func isDelimiterRow(row string) bool {
	for _, c := range cells(row) {
		d := strings.TrimSuffix(strings.TrimPrefix(c, ":"), ":")
		if d == "" || strings.Trim(d, "-") != "" {
			return false
		}
	}
	return true
}
