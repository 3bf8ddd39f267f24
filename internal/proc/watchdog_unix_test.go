//go:build unix

package proc

import (
	"io"
	"testing"
)

// TestWatchdogTable: each group told started has a slot of its own, a
// group told ended is blanked, and a blank slot is taken again before the
// table grows; a group told twice, or ended unlisted, changes nothing.
func TestWatchdogTable(t *testing.T) {
	type step struct {
		op   byte
		pgid int
	}
	tests := []struct {
		name  string
		steps []step
		want  string
	}{
		{"none", nil, ""},
		{"one", []step{{groupStarted, 42}}, "        42\n"},
		{"the widest pid", []step{{groupStarted, 2147483647}}, "2147483647\n"},
		{"two, the first ended", []step{{groupStarted, 42}, {groupStarted, 4194304}, {groupEnded, 42}},
			"          \n   4194304\n"},
		{"a blank slot taken again", []step{{groupStarted, 42}, {groupStarted, 7}, {groupEnded, 42}, {groupStarted, 1234}},
			"      1234\n         7\n"},
		{"told twice", []step{{groupStarted, 42}, {groupStarted, 42}}, "        42\n"},
		{"ended unlisted", []step{{groupStarted, 42}, {groupEnded, 7}, {groupEnded, 42}, {groupEnded, 42}}, "          \n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newWatchdog()
			defer d.table.Close()
			d.r.Close()
			d.w.Close()
			for _, s := range tt.steps {
				d.tell(s.op, s.pgid)
			}
			got, err := io.ReadAll(d.table)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("the table %q, want %q", got, tt.want)
			}
		})
	}
}
