package sessions

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Resume goes on recording the session s (read by Open) in its own file,
// appending to it. When another mm holds that file, or its last line was
// cut short (appending after it would leave a broken line in the middle),
// the session forks: a new session, with h's folder, configuration and
// model, that starts with a copy of s's history and asked agents' ids,
// written at its first message; s's file is left as it is. notice then
// says so in one line, naming both ids.
func Resume(dir string, s *Saved, h Header) (w *Writer, notice string, err error) {
	var why string
	switch {
	case s.Torn:
		why = "its file ends in a line cut short"
	default:
		f, repaired, err := openAppend(s.Path)
		switch {
		case errors.Is(err, errBusy):
			why = "another mm is using it"
		case err != nil:
			return nil, "", err
		default:
			return &Writer{dir: dir, path: s.Path, header: s.Header, f: f, create: createFile, turns: s.Turns, saved: true,
				models: models{s.LastModel, s.LastModel}}, repaired, nil
		}
	}
	h.ForkedFrom = s.ID
	w, err = Create(dir, h)
	if err != nil {
		return nil, "", err
	}
	if w.pending, err = encodeMessages(w.pending, s.History, &w.turns, nil); err != nil {
		return nil, "", fmt.Errorf("recording session %s: %w", w.ID(), err)
	}
	for _, agent := range slices.Sorted(maps.Keys(s.AskedSessions)) {
		if w.pending, err = encodeAsked(w.pending, agent, s.AskedSessions[agent]); err != nil {
			return nil, "", fmt.Errorf("recording session %s: %w", w.ID(), err)
		}
	}
	return w, fmt.Sprintf("session %s: %s: going on in a new session %s, with a copy of its history", s.ID, why, w.ID()), nil
}
