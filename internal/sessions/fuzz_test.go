package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/llm"
)

// FuzzReplay: whatever a session file holds, it is read or refused with
// one line, never a panic; what is read, written out again, reads back
// the same. The listing's readings of the file (its last question's
// number, its questions counted) never panic either.
func FuzzReplay(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.jsonl")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lastNumbered(data)
		countTurns(bufio.NewReader(bytes.NewReader(data)))
		path := filepath.Join("s", headerID(data)+".jsonl")
		s := &Saved{Path: path, AskedSessions: map[string]string{}}
		if err := s.replay(path, data); err != nil {
			if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error %q: not one line", msg)
			}
			return
		}
		out, err := encodeHeader(nil, s.Header)
		if err != nil {
			return // a header it cannot write (a year past 9999) is no concern of the reader's
		}
		var turns int
		if out, err = encodeReplace(out, s.History, &turns); err != nil {
			t.Fatalf("the history read cannot be written: %v", err)
		}
		for agent, session := range s.AskedSessions {
			out, _ = encodeAsked(out, agent, session)
		}
		again := &Saved{Path: path, AskedSessions: map[string]string{}}
		if err := again.replay(path, out); err != nil {
			t.Fatalf("written out again, it does not read: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(nonEmpty(s.History), nonEmpty(again.History)) || !reflect.DeepEqual(s.AskedSessions, again.AskedSessions) ||
			s.Header.ID != again.Header.ID || s.Header.Cwd != again.Header.Cwd || !s.Header.Created.Equal(again.Header.Created) {
			t.Fatalf("read back differently:\n%+v\n%+v", s, again)
		}
	})
}

// headerID is the id the first line gives, for a file name that matches.
func headerID(data []byte) string {
	first, _, _ := bytes.Cut(data, []byte{'\n'})
	var h struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(first, &h) != nil || !validID(h.ID) {
		return "x"
	}
	return h.ID
}

// nonEmpty is msgs, nil when empty.
func nonEmpty(msgs []llm.Message) []llm.Message {
	if len(msgs) == 0 {
		return nil
	}
	return msgs
}
