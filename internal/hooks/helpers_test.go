package hooks

import (
	"os"
	"regexp"
	"sync"
	"testing"
)

// hook is a command entry as Resolve makes it.
func hook(command string) Entry {
	return Entry{Command: command, Timeout: DefaultTimeout, OnError: OnErrorWarn, ConfigDir: "/configs"}
}

func with(e Entry, f func(*Entry)) Entry {
	f(&e)
	return e
}

func matching(re string, e Entry) Entry {
	e.Matcher = re
	e.matcher = regexp.MustCompile(re)
	return e
}

// configOf is a configuration with the entries of one event.
func configOf(ev Event, entries ...Entry) *Config {
	c := &Config{}
	c.byEvent[ev.index()] = entries
	return c
}

// testEngine runs the entries of ev in a fresh working directory whose path
// the hooks read as $T.
func testEngine(t *testing.T, cfg *Config) (*Engine, string) {
	t.Helper()
	dir := t.TempDir()
	return NewEngine(cfg, Options{
		Cwd:     dir,
		Model:   "echo/test",
		Environ: append(os.Environ(), "T="+dir),
	}), dir
}

// recorder is an Observer keeping every run.
type recorder struct {
	mu   sync.Mutex
	runs []Run
}

func (r *recorder) observe(run Run) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs = append(r.runs, run)
}

// lines are the display lines of the runs, numbered from 1, each followed by
// its report line when there is one.
func (r *recorder) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for i, run := range r.runs {
		out = append(out, run.Line(i+1))
		if rep := run.Report(); rep != "" {
			out = append(out, rep)
		}
	}
	return out
}
