package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/internal/textcut"
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
	// Name is the name a person gave it (Name), "" for none.
	Name string
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
	// The names of each folder listed, read once.
	names := map[string]map[string]string{}
	for _, id := range ids {
		path := filepath.Join(dir, id+".jsonl")
		sum, ok := summarise(path, cwd, all)
		if !ok {
			continue
		}
		sum.ID = id
		if sum.Cwd != "" {
			if names[sum.Cwd] == nil {
				names[sum.Cwd] = readNames(dir, sum.Cwd)
			}
			for n, i := range names[sum.Cwd] {
				if i == id {
					sum.Name = n
				}
			}
		}
		out = append(out, sum)
	}
	slices.SortStableFunc(out, func(a, b Summary) int {
		if c := b.Modified.Compare(a.Modified); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	return out, nil
}

// Bounds of what the listing reads of one session file.
const (
	// maxHeadLine is the longest header or first question decoded: a
	// header is some 200 bytes; a first question with an @path file in it
	// some 70 KB; one longer is listed without its text.
	maxHeadLine = 1 << 20
	// maxHead is how far from the start the first question is looked for:
	// it is the second line unless the first lines are a fork's copy.
	maxHead = 4 << 20
	// maxTail is how far from the end the last question's line is looked
	// for: one turn's lines, tool outputs included (30 KB a bash call, 50
	// model calls a turn), fit several times. Past it, and in a file
	// written before questions were numbered, the lines are counted as
	// they stream by, never held.
	maxTail = 8 << 20
)

// summarise reads what a listing shows of the file path — its header,
// its first question and the number of its last one — without reading the
// whole file; ok is false for a session of another folder.
func summarise(path, cwd string, all bool) (Summary, bool) {
	var sum Summary
	if fi, err := os.Stat(path); err == nil {
		sum.Modified = fi.ModTime() // a stat opens nothing
	}
	f, fi, err := regularfile.Open(path)
	if err != nil {
		sum.Problem = openError(path, err).Error()
		return sum, all
	}
	defer f.Close()
	sum.Modified = fi.ModTime()
	if _, err := checkFile(path, fi); err != nil {
		sum.Problem = err.Error()
		return sum, all
	}
	r := bufio.NewReaderSize(f, 64<<10)
	first, _, err := boundedLine(r, maxHeadLine)
	var h anyLine
	if err != nil || json.Unmarshal(first, &h) != nil || h.T != kindHeader {
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
	firstQuestion, damaged := firstQuestionOf(r, int64(len(first)))
	sum.First = oneLine(firstQuestion)
	turns, ok, tailDamaged := lastTurn(f, fi.Size())
	if !ok {
		if _, err := f.Seek(0, io.SeekStart); err == nil {
			turns = countTurns(bufio.NewReaderSize(f, 64<<10))
		}
	}
	sum.Turns = turns
	if damaged || tailDamaged {
		sum.Problem = damage(path, fi.Size())
	}
	return sum, true
}

// damage is the Problem of a session file with a line the listing could
// not read: Open's own words, naming the line, for a file small enough to
// read whole again (a damaged file is rare: the cost is paid for it
// alone); else a line that says how to find it.
func damage(path string, size int64) string {
	if size <= maxTail {
		if _, err := Read(path); err != nil {
			return err.Error()
		}
	}
	return "a line cannot be read: mm --resume " + filepath.Base(path)[:idLen] + " names it"
}

// openError is why a session file cannot be read.
func openError(path string, err error) error {
	var nr *regularfile.NotRegularError
	if errors.As(err, &nr) {
		return fmt.Errorf("%s: %s, not a regular file: mm reads only the session files it wrote", path, regularfile.Kind(nr.Mode))
	}
	return fmt.Errorf("reading the session file: %w", err)
}

// boundedLine reads one line, newline included; a line longer than max is
// read past and returned as nil with long set. An error is the end of the
// file (or a line cut short there).
func boundedLine(r *bufio.Reader, max int) (line []byte, long bool, err error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if !long {
			if len(buf)+len(chunk) > max {
				long, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case err == nil:
			return buf, long, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return nil, long, err
		}
	}
}

// userPrefix begins every question's line; replacePrefix a new history's.
var (
	userPrefix    = []byte(`{"t":"message","role":"user"`)
	replacePrefix = []byte(`{"t":"replace"`)
)

// firstQuestionOf reads lines from r, after the header, until the first
// question (a question's line, or the first of a replace's history), at
// most maxHead bytes in; damaged says a line on the way cannot be read.
func firstQuestionOf(r *bufio.Reader, read int64) (first string, damaged bool) {
	for read < maxHead {
		line, long, err := boundedLine(r, maxHeadLine)
		if err != nil {
			return "", false // the end, or a last line cut short: Open skips it
		}
		read += int64(len(line))
		if long {
			read += maxHeadLine // at least
			continue
		}
		var l anyLine
		if !readable(line, &l) {
			return "", true
		}
		switch l.T {
		case kindMessage:
			if l.Role == llm.RoleUser {
				return l.Content, false
			}
		case kindReplace:
			for _, m := range l.History {
				if m.Role == llm.RoleUser {
					return m.Content, false
				}
			}
		}
	}
	return "", false
}

// readable decodes one line after the header into l, and says whether
// Open reads it: a blank line, or a known kind of line.
func readable(line []byte, l *anyLine) bool {
	if len(bytes.TrimSpace(line)) == 0 {
		return true
	}
	if json.Unmarshal(line, l) != nil {
		return false
	}
	switch l.T {
	case kindMessage, kindReplace, kindAsked:
		return true
	}
	return false
}

// anyDamaged says whether one of lines, whole lines after the header,
// cannot be read.
func anyDamaged(lines []byte) bool {
	for len(lines) > 0 {
		line, rest, _ := bytes.Cut(lines, []byte{'\n'})
		lines = rest
		var l anyLine
		if !readable(line, &l) {
			return true
		}
	}
	return false
}

// lastTurn reads the number of the file's last question from its end: the
// "turn" of the last question's line, or the "turns" of a later replace
// line. ok is false when neither is within maxTail bytes of the end, or
// the line has no number (a file written before they were). damaged says
// a whole line of the last 64 KiB (the first window read) cannot be read.
func lastTurn(f io.ReaderAt, size int64) (turns int, ok, damaged bool) {
	for window, first := int64(64<<10), true; ; window, first = window*4, false {
		window = min(window, maxTail, size)
		buf := make([]byte, window)
		if _, err := f.ReadAt(buf, size-window); err != nil && !errors.Is(err, io.EOF) {
			return 0, false, damaged
		}
		// Whole lines only: one cut at the window's start is not one (and
		// the header, when the window starts the file, is no history line).
		lines := buf
		if i := bytes.IndexByte(buf, '\n'); i < 0 {
			lines = nil
		} else {
			lines = buf[i+1:]
		}
		if first {
			whole := lines[:bytes.LastIndexByte(lines, '\n')+1] // a torn last line is skipped, as Open skips it
			damaged = anyDamaged(whole)
		}
		if n, found, ok := lastNumbered(lines); found {
			return n, ok, damaged
		}
		if window == size {
			return 0, true, damaged // no question at all
		}
		if window == maxTail {
			return 0, false, damaged
		}
	}
}

// lastNumbered finds the last complete question or replace line of lines
// and reads its number.
func lastNumbered(lines []byte) (n int, found, ok bool) {
	if i := bytes.LastIndexByte(lines, '\n'); i >= 0 {
		lines = lines[:i+1] // a torn last line is skipped, as Open skips it
	} else {
		return 0, false, false
	}
	for len(lines) > 0 {
		end := len(lines) - 1 // the newline of the last line
		start := bytes.LastIndexByte(lines[:end], '\n') + 1
		line := lines[start:end]
		lines = lines[:start]
		var key []byte
		switch {
		case bytes.HasPrefix(line, userPrefix):
			key = []byte(`"turn":`)
			line = line[len(userPrefix):]
		case bytes.HasPrefix(line, replacePrefix):
			key = []byte(`"turns":`)
			line = line[len(replacePrefix):]
		default:
			continue
		}
		rest, has := bytes.CutPrefix(line, append([]byte{','}, key...))
		if !has {
			return 0, true, false
		}
		v, err := strconv.Atoi(string(rest[:digits(rest)]))
		return v, true, err == nil
	}
	return 0, false, false
}

// digits counts the leading ASCII digits of b.
func digits(b []byte) int {
	n := 0
	for n < len(b) && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	return n
}

// countTurns counts the questions of the history as it stands by reading
// every line as it streams by, holding one line at a time: a file written
// before questions were numbered.
func countTurns(r *bufio.Reader) int {
	turns := 0
	for {
		line, long, err := boundedLine(r, maxTail)
		if err != nil {
			return turns
		}
		switch {
		case long:
		case bytes.HasPrefix(line, userPrefix):
			turns++
		case bytes.HasPrefix(line, replacePrefix):
			var l anyLine
			if json.Unmarshal(line, &l) != nil {
				continue
			}
			turns = 0
			for _, m := range l.History {
				if m.Role == llm.RoleUser {
					turns++
				}
			}
		}
	}
}

// oneLine is text on one line, its runs of blanks as one space, cut to
// firstChars characters.
func oneLine(text string) string {
	return textcut.Ellipsis(strings.Join(strings.Fields(text), " "), firstChars)
}
