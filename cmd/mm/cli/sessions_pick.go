package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/sessions"
)

// errPickMode is --resume without an id where no list can be shown: the
// list is picked from at a terminal, in the line mode or the window.
var errPickMode = errors.New("--resume without an id lists this folder's sessions to pick from, in the line mode or -tui at a terminal; give the id or name (mm sessions lists them) with -p, --ask or a pipe")

// maxChoices bounds the sessions /resume alone lists to pick from: the
// latest ones, a screen's worth; mm sessions lists them all.
const maxChoices = 20

// Choices are the sessions of this folder /resume alone and mm --resume
// without an id list to pick from, the latest first, without the running
// one.
func (st *store) Choices() ([]orchestrator.SavedSession, error) {
	if st.dir == "" {
		return nil, errNoDir
	}
	list, err := sessions.List(st.dir, st.cwd, false)
	if err != nil {
		return nil, err
	}
	running, _ := st.id()
	now := time.Now()
	var out []orchestrator.SavedSession
	for _, s := range list {
		if s.ID == running {
			continue
		}
		out = append(out, orchestrator.SavedSession{ID: s.ID, Name: s.Name, First: s.First, Age: age(now.Sub(s.Modified)), Turns: s.Turns, Problem: s.Problem})
		if len(out) == maxChoices {
			break
		}
	}
	return out, nil
}

// Rename is /rename: the running session's name in this folder.
func (st *store) Rename(name string) (string, error) {
	id, _ := st.id()
	if id == "" {
		return "", errors.New("this session is not saved (--no-save, or persist: false): only a saved session can be named")
	}
	if err := sessions.Name(st.dir, st.cwd, id, name); err != nil {
		return "", err
	}
	return fmt.Sprintf("(session %s is named %s: mm --resume %s goes on with it)", id, name, name), nil
}
