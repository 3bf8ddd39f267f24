//go:build unix

package proc

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

// TestWatchdogTable: each target listed has a slot of its own, one
// unlisted is blanked, and a blank slot is taken again before the table
// grows; a target listed twice, or unlisted unlisted, changes nothing, and
// an id wider than a word is not listed. The table ends with its end slot.
func TestWatchdogTable(t *testing.T) {
	type step struct {
		list bool
		t    target
	}
	g := func(id int) step { return step{true, target{id, true}} }
	p := func(id int) step { return step{true, target{id, false}} }
	un := func(s step) step { s.list = false; return s }
	const end = "     end       \n"
	tests := []struct {
		name  string
		steps []step
		want  string
	}{
		{"none", nil, end},
		{"a group", []step{g(42)}, "  group      42\n" + end},
		{"a process", []step{p(42)}, "process      42\n" + end},
		{"a group and a process of one id", []step{g(42), p(42)}, "  group      42\nprocess      42\n" + end},
		{"the widest pid", []step{g(4194304), p(9999999)}, "  group 4194304\nprocess 9999999\n" + end},
		{"too wide, or not one of mm's", []step{g(10000000), p(0), g(-1), g(1), p(1)}, end},
		{"two, the first unlisted", []step{g(42), g(4194304), un(g(42))},
			"               \n  group 4194304\n" + end},
		{"a blank slot taken again", []step{g(42), p(7), un(g(42)), g(1234)},
			"  group    1234\nprocess       7\n" + end},
		{"listed twice", []step{g(42), g(42)}, "  group      42\n" + end},
		{"unlisted unlisted", []step{g(42), un(p(42)), un(g(7)), un(g(42)), un(g(42))}, "               \n" + end},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newWatchdog()
			defer d.table.close()
			d.r.Close()
			d.w.Close()
			for _, s := range tt.steps {
				if s.list {
					d.list(s.t)
				} else {
					d.unlist(s.t)
				}
			}
			if got := readTable(t, d.table); got != tt.want {
				t.Errorf("the table %q, want %q", got, tt.want)
			}
		})
	}
}

// readTable reads tb's lines up to its end slot, as the watchdog does.
func readTable(t *testing.T, tb *table) string {
	t.Helper()
	var b strings.Builder
	r := bufio.NewReader(io.NewSectionReader(tb.f, 0, tableSlots*slotSize))
	for {
		line, err := r.ReadString('\n')
		b.WriteString(line)
		if err != nil {
			t.Fatalf("no end slot in %q: %v", b.String(), err)
		}
		if strings.HasPrefix(line, string(kindEnd[:])) {
			return b.String()
		}
	}
}
