package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/internal/suggest"
)

// Saved is a session read back from its file.
type Saved struct {
	Header
	// Path is the session's file.
	Path string
	// History is the conversation as the model last read it.
	History []llm.Message
	// AskedSessions are the asked agents' session ids, by agent name.
	AskedSessions map[string]string
	// Turns counts the questions in History.
	Turns int
	// LastModel is the model the session last ran with: the last model a
	// question's line noted, else the header's.
	LastModel string
	// Torn says the file's last line was cut short (mm was stopped while
	// writing it): it was skipped.
	Torn bool
	// Notices are what the person should read about the file (a torn
	// line skipped, a file made private again), one line each.
	Notices []string
}

// Open reads back the session of dir whose id is, or begins with,
// idOrPrefix. An unknown or ambiguous id, a file of another user, of a
// newer format or with a line it cannot read is an error of one line
// naming the file (and the line); the file is left as it is.
func Open(dir, idOrPrefix string) (*Saved, error) {
	path, err := Find(dir, idOrPrefix)
	if err != nil {
		return nil, err
	}
	return Read(path)
}

// nearID is the did-you-mean for a prefix no id starts with: the one id
// whose start is a single slip away from it (a letter changed, dropped,
// doubled or swapped), when the prefix is long enough to mean one.
func nearID(p string, ids []string) string {
	if len(p) < 4 {
		return ""
	}
	var near []string
	for _, id := range ids {
		start := id[:min(len(id), len(p))]
		if suggest.Distance(p, start) <= 1 || len(id) > len(p) && suggest.Distance(p, id[:len(p)+1]) <= 1 {
			near = append(near, id)
		}
	}
	if len(near) != 1 {
		return ""
	}
	return ` (did you mean "` + near[0] + `"?)`
}

// Find is the file of dir's session whose id is, or begins with,
// idOrPrefix.
func Find(dir, idOrPrefix string) (string, error) {
	p := strings.ToLower(strings.TrimSpace(idOrPrefix))
	if err := checkPrefix(p); err != nil {
		return "", err
	}
	ids, err := ids(dir)
	if err != nil {
		return "", err
	}
	var match []string
	for _, id := range ids {
		if id == p {
			return filepath.Join(dir, id+".jsonl"), nil
		}
		if strings.HasPrefix(id, p) {
			match = append(match, id)
		}
	}
	switch len(match) {
	case 0:
		return "", fmt.Errorf("no saved session %q in %s: mm sessions --all lists them%s", idOrPrefix, dir, nearID(p, ids))
	case 1:
		return filepath.Join(dir, match[0]+".jsonl"), nil
	}
	const shown = 5
	list := strings.Join(match[:min(len(match), shown)], ", ")
	if len(match) > shown {
		list += fmt.Sprintf(" and %d more", len(match)-shown)
	}
	return "", fmt.Errorf("session id %q is ambiguous: %s: give more of the id", idOrPrefix, list)
}

// ids are the ids of dir's session files, oldest first; none when dir
// does not exist yet.
func ids(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the sessions folder: %w", err)
	}
	var out []string
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || len(id) != idLen || strings.Trim(id, idAlphabet) != "" {
			continue
		}
		// An empty file is a session starting: it has no message yet.
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
			continue
		}
		out = append(out, id)
	}
	slices.Sort(out)
	return out, nil
}

// Read reads the session file path.
func Read(path string) (*Saved, error) {
	data, notice, err := readFile(path)
	if err != nil {
		return nil, err
	}
	s := &Saved{Path: path, AskedSessions: map[string]string{}}
	if notice != "" {
		s.Notices = append(s.Notices, notice)
	}
	if err := s.replay(path, data); err != nil {
		return nil, err
	}
	if len(s.History) == 0 {
		s.History = nil
	}
	for _, m := range s.History {
		if m.Role == llm.RoleUser {
			s.Turns++
		}
	}
	return s, nil
}

// readFile reads a session file of this user, whole.
func readFile(path string) ([]byte, string, error) {
	// Not os.Open: a named pipe in the folder would be waited on, past
	// Ctrl-C.
	f, fi, err := regularfile.Open(path)
	if err != nil {
		return nil, "", openError(path, err)
	}
	defer f.Close()
	notice, err := checkFile(path, fi)
	if err != nil {
		return nil, "", err
	}
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, "", fmt.Errorf("reading the session file: %w", err)
	}
	data := buf.Bytes()
	return data, notice, nil
}

// messagePrefix begins every message line (its kind is written first).
var messagePrefix = []byte(`{"t":"message",`)

// replay builds the history from the file's lines.
func (s *Saved) replay(path string, data []byte) error {
	s.History = make([]llm.Message, 0, bytes.Count(data, []byte{'\n'}))
	n := 0
	for len(data) > 0 {
		n++
		line, rest, ok := bytes.Cut(data, []byte{'\n'})
		data = rest
		if !ok && n == 1 {
			return fmt.Errorf("%s:1: the header line is cut short (mm was stopped while writing it): nothing to resume", path)
		}
		if !ok {
			// The last line has no newline: mm wrote each line with its
			// newline in one write, so this one was cut short.
			s.Torn = true
			s.Notices = append(s.Notices, fmt.Sprintf("%s:%d: the last line is cut short (mm was stopped while writing it): resumed without it", path, n))
			break
		}
		if n > 1 && len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if n == 1 {
			// The format first: a newer one may say anything after it.
			var v struct {
				T string `json:"t"`
				V int    `json:"v"`
			}
			if json.Unmarshal(line, &v) == nil && v.T == kindHeader && v.V > Version {
				return fmt.Errorf("%s: written by a newer mm (session format %d; this mm reads up to %d): update mm to resume it", path, v.V, Version)
			}
		}
		if n > 1 && bytes.HasPrefix(line, messagePrefix) {
			// Most lines: decoded into a message alone, with
			// encoding/json: resuming 10,000 messages stays well under
			// 100 ms (BenchmarkOpen10000).
			var m messageLine
			if err := json.Unmarshal(line, &m); err != nil {
				return fmt.Errorf("%s:%d: not a session line (%v): the file is left as it is", path, n, err)
			}
			s.History = append(s.History, m.message.llm())
			if m.Model != "" {
				s.LastModel = m.Model
			}
			continue
		}
		var l anyLine
		if err := json.Unmarshal(line, &l); err != nil {
			return fmt.Errorf("%s:%d: not a session line (%v): the file is left as it is", path, n, err)
		}
		if n == 1 {
			if err := s.header(path, l); err != nil {
				return err
			}
			continue
		}
		switch l.T {
		case kindMessage:
			s.History = append(s.History, l.message.llm())
			if l.Model != "" {
				s.LastModel = l.Model
			}
		case kindReplace:
			s.History = make([]llm.Message, len(l.History))
			for i, m := range l.History {
				s.History[i] = m.llm()
			}
		case kindAsked:
			s.AskedSessions[l.Agent] = l.Session
		default:
			return fmt.Errorf("%s:%d: not a session line (its kind %q is unknown to session format %d): the file is left as it is", path, n, l.T, Version)
		}
	}
	if n == 0 || s.ID == "" {
		return fmt.Errorf("%s: empty, not a session: the file is left as it is", path)
	}
	return nil
}

func (s *Saved) header(path string, l anyLine) error {
	if l.T != kindHeader {
		return fmt.Errorf("%s:1: not an mm session file (no session header): the file is left as it is", path)
	}
	if want := strings.TrimSuffix(filepath.Base(path), ".jsonl"); l.ID != want {
		return fmt.Errorf("%s:1: the header's id %q is not the file's name: the file is left as it is", path, l.ID)
	}
	s.Header = Header{Version: l.V, ID: l.ID, Cwd: l.Cwd, Config: l.Config, Model: l.Model, Created: l.Created, ForkedFrom: l.ForkedFrom}
	s.LastModel = l.Model
	return nil
}
