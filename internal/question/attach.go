package question

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mm-agent/mm/internal/regularfile"
)

// MaxAttachedBytes bounds what mm -p reads of stdin beside a question
// (cat log | mm -p "explain"): what a pipe brings is a file brought in, so
// it has an @path file's bound, some 16,000 tokens; more would not fit a
// local model's window beside the conversation, and a pipe that never
// ends (yes | mm -p …) must not fill the memory.
const MaxAttachedBytes = MaxFileBytes

// ReadAttached reads the input piped beside a question, up to
// MaxAttachedBytes; cut says there was more, which is left unread.
func ReadAttached(r io.Reader) (data []byte, cut bool, err error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxAttachedBytes+1))
	if err != nil {
		return nil, false, err
	}
	return b, len(b) > MaxAttachedBytes, nil
}

// Attach is question followed by data, the input piped beside it, named
// [stdin] and fenced as an @path file is (so that its @path, $name and
// /… lines are sent as they are: a log is data, not the person's lines),
// cut at a line break within MaxAttachedBytes with a note when cut says
// there was more; kept is then how many bytes were kept (0 when not
// cut). Input of white space alone adds nothing; input that is not text is
// refused.
func Attach(question string, data []byte, cut bool) (text string, kept int, err error) {
	if strings.TrimSpace(string(data)) == "" {
		return question, 0, nil
	}
	head, _ := cutText(data, MaxAttachedBytes)
	if reason := binary(head); reason != "" {
		return "", 0, errors.New("stdin: " + reason + ": mm sends text only beside a question")
	}
	var b strings.Builder
	b.WriteString(question)
	b.WriteString("\n\n[stdin]\n")
	fenced(&b, string(head))
	if cut {
		kept = len(head)
		fmt.Fprintf(&b, "\n[stdin was cut: the first %s are above, the rest is left out (mm's limit for stdin beside a question)]", regularfile.FormatSize(int64(kept)))
	}
	return b.String(), kept, nil
}
