package sessions

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mm-agent/mm/internal/textcut"
	"github.com/mm-agent/mm/llm"
)

// Summary is one line of mm sessions.
type Summary struct {
	ID  string
	Cwd string
	// Modified is when the session last saved something.
	Modified time.Time
	Created  time.Time
	// Turns counts the questions in the history as it stands.
	Turns int
	// First is the first question, on one line, cut to firstChars.
	First string
	// Problem says why the session cannot be resumed ("" when it can):
	// the error Open would give.
	Problem string
}

// firstChars bound the first question in a listing.
const firstChars = 60

// List summarises dir's sessions of the folder cwd (every folder's when
// all), the latest first. A file it cannot read is listed with its
// Problem.
func List(dir, cwd string, all bool) ([]Summary, error) {
	ids, err := ids(dir)
	if err != nil {
		return nil, err
	}
	var out []Summary
	for _, id := range ids {
		path := filepath.Join(dir, id+".jsonl")
		sum, ok := summarise(path, cwd, all)
		if ok {
			sum.ID = id
			out = append(out, sum)
		}
	}
	slices.SortStableFunc(out, func(a, b Summary) int {
		if c := b.Modified.Compare(a.Modified); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	return out, nil
}

// Latest is the latest session of the folder cwd that can be resumed; ok
// is false when there is none.
func Latest(dir, cwd string) (Summary, bool, error) {
	list, err := List(dir, cwd, false)
	if err != nil {
		return Summary{}, false, err
	}
	for _, s := range list {
		if s.Problem == "" {
			return s, true, nil
		}
	}
	return Summary{}, false, nil
}

// summarise reads what a listing shows of the file path; ok is false for a
// session of another folder.
func summarise(path, cwd string, all bool) (Summary, bool) {
	var sum Summary
	if fi, err := os.Stat(path); err == nil {
		sum.Modified = fi.ModTime()
	}
	data, _, err := readFile(path)
	if err != nil {
		sum.Problem = err.Error()
		return sum, all
	}
	first, rest, _ := bytes.Cut(data, []byte{'\n'})
	var h anyLine
	if err := json.Unmarshal(first, &h); err != nil || h.T != kindHeader {
		sum.Problem = path + ":1: not an mm session file (no session header)"
		return sum, all
	}
	sum.Cwd, sum.Created = h.Cwd, h.Created
	if !all && h.Cwd != cwd {
		return sum, false
	}
	if h.V > Version {
		// Open's words, without reading the rest.
		_, err := Read(path)
		sum.Problem = err.Error()
		return sum, true
	}
	// Most lines are messages: their role is told from their first bytes,
	// and only the first question and a replaced history are decoded.
	userPrefix := []byte(`{"t":"message","role":"user"`)
	firstQuestion := ""
	for len(rest) > 0 {
		line, r, ok := bytes.Cut(rest, []byte{'\n'})
		rest = r
		if !ok {
			break // cut short: Open skips it too
		}
		switch {
		case bytes.HasPrefix(line, userPrefix):
			sum.Turns++
			if firstQuestion == "" {
				var l anyLine
				if json.Unmarshal(line, &l) == nil {
					firstQuestion = l.Content
				}
			}
		case bytes.HasPrefix(line, []byte(`{"t":"replace"`)):
			var l anyLine
			if err := json.Unmarshal(line, &l); err != nil {
				sum.Problem = "a line cannot be read: mm --resume " + filepath.Base(path)[:idLen] + " names it"
				continue
			}
			sum.Turns = 0
			for _, m := range l.History {
				if m.Role == llm.RoleUser {
					sum.Turns++
					if firstQuestion == "" {
						firstQuestion = m.Content
					}
				}
			}
		}
	}
	sum.First = oneLine(firstQuestion)
	return sum, true
}

// oneLine is text on one line, its runs of blanks as one space, cut to
// firstChars characters.
func oneLine(text string) string {
	return textcut.Ellipsis(strings.Join(strings.Fields(text), " "), firstChars)
}
