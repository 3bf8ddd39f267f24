package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/sessions"
)

// sessionsCmd is mm sessions: the saved sessions of this folder, or of
// every folder.
func sessionsCmd(s *streams) *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "list the saved sessions of this folder (--all: of every folder), the latest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cwd, err := s.Getwd()
			if err != nil {
				return err
			}
			text, err := listSessions(sessions.Dir(s.Getenv), cwd, all, time.Now())
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), text)
			return nil
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "the sessions of every folder, with their folder")
	return cmd
}

// listSessions is mm sessions' and /sessions' text: a table, the latest
// session first, or a line saying there is none.
func listSessions(dir, cwd string, all bool, now time.Time) (string, error) {
	if dir == "" {
		return "", errNoDir
	}
	list, err := sessions.List(dir, cwd, all)
	if err != nil {
		return "", err
	}
	if len(list) == 0 {
		if all {
			return "(no saved sessions)", nil
		}
		return "(no saved sessions in this folder: mm sessions --all lists every folder's)", nil
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	// A NAME column once a session of the list has a name (/rename).
	named := slices.ContainsFunc(list, func(s sessions.Summary) bool { return s.Name != "" })
	head := "ID\t"
	if named {
		head += "NAME\t"
	}
	head += "AGE\tTURNS\t"
	if all {
		head += "FOLDER\t"
	}
	fmt.Fprintln(tw, head+"FIRST QUESTION")
	// The session mm --continue takes, in each folder listed.
	last := map[string]string{}
	for _, s := range list {
		// What a session's file says (its first question, its folder)
		// is shown visibly, one cell on one line.
		first := frontend.VisibleLine(s.First)
		if s.Problem != "" {
			first = "cannot be resumed: " + frontend.VisibleLine(s.Problem)
		}
		cwd := frontend.VisibleLine(s.Cwd)
		id, seen := last[s.Cwd]
		if !seen {
			id, _ = sessions.LastUsed(dir, s.Cwd)
			last[s.Cwd] = id
		}
		if s.ID == id {
			first += "  ← mm --continue"
		}
		row := s.ID + "\t"
		if named {
			row += frontend.VisibleLine(s.Name) + "\t"
		}
		row += fmt.Sprintf("%s\t%d\t", age(now.Sub(s.Modified)), s.Turns)
		if all {
			row += cwd + "\t"
		}
		fmt.Fprintln(tw, row+first)
	}
	tw.Flush()
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// age is how long ago, roughly: "just now", "5 min ago", "3 h ago",
// "2 days ago".
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d/time.Hour))
	}
	return fmt.Sprintf("%d days ago", int(d/(24*time.Hour)))
}

// store is the mode's saved sessions: the recorder of the running session
// (nil when saving is off) and what /sessions and /resume do.
type store struct {
	dir    string
	cwd    string
	header sessions.Header
	save   bool

	mu sync.Mutex
	w  *sessions.Writer
}

// newStore prepares saving for a mode; what the flags resume is read
// here, so that an unknown id fails before anything starts. resumed is
// nil for a new session; notice is the line that tells what was resumed.
func newStore(f *flags, s *streams, cfgAbs, model, cwd string, persist bool) (st *store, resumed *orchestrator.Resumed, notice string, err error) {
	st = &store{
		dir:    sessions.Dir(s.Getenv),
		cwd:    cwd,
		header: sessions.Header{Cwd: cwd, Config: cfgAbs, Model: model},
		save:   persist && !f.noSave,
	}
	if st.dir == "" {
		// No HOME: nowhere to save, nothing to resume.
		st.save = false
		if f.cont || f.resuming {
			return nil, nil, "", errNoDir
		}
		return st, nil, "", nil
	}
	id := f.resume
	if f.cont {
		last, ok := sessions.LastUsed(st.dir, cwd)
		if !ok {
			return nil, nil, "", fmt.Errorf("--continue: no session used in this folder (%s) yet: mm sessions lists its sessions, mm --resume <id> goes on with one", cwd)
		}
		id = last
	}
	if f.cont || f.resuming {
		r, _, notice, err := st.Resume(id)
		if err != nil {
			return nil, nil, "", err
		}
		if f.cont {
			notice = "continuing this folder's last session: " + strings.TrimPrefix(notice, "resumed session ")
		}
		return st, r, notice, nil
	}
	if st.save {
		if st.w, err = sessions.Create(st.dir, st.header); err != nil {
			return nil, nil, "", err
		}
		st.markWhenWritten(st.w)
	}
	return st, nil, "", nil
}

// recorder is what the running session records into; nil when saving is
// off.
func (st *store) recorder() orchestrator.Recorder {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.w == nil {
		return nil
	}
	return st.w
}

// markWhenWritten makes a new session this folder's last once something
// of it is saved: a person's session, which mm --continue goes on with.
func (st *store) markWhenWritten(w *sessions.Writer) {
	w.WhenWritten(func() { _ = sessions.MarkUsed(st.dir, st.cwd, w.ID()) })
}

// id is the running session's id ("" when saving is off) and whether its
// file holds it yet.
func (st *store) id() (string, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.w == nil {
		return "", false
	}
	return st.w.ID(), st.w.Saved()
}

// List is /sessions.
func (st *store) List() (string, error) {
	return listSessions(st.dir, st.cwd, false, time.Now())
}

// Resume is /resume and --resume: the saved session read back, and the
// writer that goes on saving it (a fork when another mm holds it). id is
// the name of one of this folder's sessions (/rename), else an id or its
// start.
func (st *store) Resume(id string) (*orchestrator.Resumed, orchestrator.Recorder, string, error) {
	if st.dir == "" {
		return nil, nil, "", errNoDir
	}
	if named, ok := sessions.Named(st.dir, st.cwd, strings.TrimSpace(id)); ok {
		id = named
	}
	saved, err := sessions.Open(st.dir, id)
	if err != nil {
		return nil, nil, "", err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.w != nil && st.w.ID() == saved.ID {
		return nil, nil, "", fmt.Errorf("session %s is the one running", saved.ID)
	}
	lines := []string{fmt.Sprintf("resumed session %s (%s, %d messages)", saved.ID, plural(saved.Turns, "turn"), len(saved.History))}
	lines = append(lines, saved.Notices...)
	var rec orchestrator.Recorder
	if st.save {
		w, notice, err := sessions.Resume(st.dir, saved, st.header)
		if err != nil {
			return nil, nil, "", err
		}
		if notice != "" {
			lines = append(lines, notice)
		}
		if st.w != nil {
			// Its lines were written as they came; a failure was said then.
			_ = st.w.Close()
		}
		st.w, rec = w, w
		if err := sessions.MarkUsed(st.dir, st.cwd, w.ID()); err != nil {
			lines = append(lines, "mm: "+err.Error())
		}
	}
	return &orchestrator.Resumed{History: saved.History, AskedSessions: saved.AskedSessions, Model: saved.LastModel}, rec, strings.Join(lines, "\n"), nil
}

// close closes the running session's file; an error when some of it
// could not be saved.
func (st *store) close() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.w == nil {
		return nil
	}
	return st.w.Close()
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// errNoDir is saving without a home: no HOME, no XDG_STATE_HOME.
var errNoDir = errors.New("no sessions folder: set HOME or XDG_STATE_HOME")

// errResumeACP: under -acp the editor loads a session (session/load).
var errResumeACP = errors.New("--continue and --resume work with the line mode, -tui, -p and --ask; under -acp the editor loads a session (session/load)")
