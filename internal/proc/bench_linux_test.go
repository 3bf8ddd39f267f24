package proc

import (
	"os/exec"
	"testing"
)

// BenchmarkSweep is what a supervising mm adds to every command's end and
// to every SIGCHLD: one look at its children.
func BenchmarkSweep(b *testing.B) {
	s := newSupervisor()
	s.reaper = &reaper{}
	for b.Loop() {
		s.sweep()
	}
}

// BenchmarkStartWait is a whole child, `true`, through Start and Wait: its
// group, the watchdog told twice, the group killed after it.
func BenchmarkStartWait(b *testing.B) {
	for b.Loop() {
		cmd := exec.Command("true")
		if err := Start(cmd); err != nil {
			b.Fatal(err)
		}
		if err := Wait(cmd); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExec is the same child started the plain way, to compare.
func BenchmarkExec(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStartWatchdog is the one-off cost of mm's first child.
func BenchmarkStartWatchdog(b *testing.B) {
	for b.Loop() {
		d := newWatchdog()
		if d == nil {
			b.Fatal("no watchdog")
		}
		d.run()
		d.kill()
		d.reap()
		d.w.Close()
	}
}
