package sessions

import (
	"bufio"
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

// Latest is the session of the folder cwd that saved something last; ok
// is false when there is none. It reads the header lines only: Open then
// reads the whole file, and says what is wrong with it, if anything.
func Latest(dir, cwd string) (Summary, bool, error) {
	ids, err := ids(dir)
	if err != nil {
		return Summary{}, false, err
	}
	var best Summary
	found := false
	for _, id := range ids {
		path := filepath.Join(dir, id+".jsonl")
		fi, err := os.Stat(path)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		h, ok := readHeader(path)
		if !ok || h.Cwd != cwd {
			continue
		}
		if !found || fi.ModTime().After(best.Modified) || fi.ModTime().Equal(best.Modified) && id > best.ID {
			best, found = Summary{ID: id, Cwd: h.Cwd, Modified: fi.ModTime()}, true
		}
	}
	return best, found, nil
}

// folderOf is what Latest reads of a header: a newer format's too, which
// Open then refuses by name.
type folderOf struct {
	T   string `json:"t"`
	Cwd string `json:"cwd"`
}

// readHeader reads the first line of the file path as a header.
func readHeader(path string) (folderOf, bool) {
	f, err := os.Open(path)
	if err != nil {
		return folderOf{}, false
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, 4096).ReadSlice('\n')
	var h folderOf
	if err != nil || json.Unmarshal(line, &h) != nil || h.T != kindHeader {
		return folderOf{}, false
	}
	return h, true
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
