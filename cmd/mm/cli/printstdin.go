package cli

import (
	"fmt"
	"io"

	"github.com/mm-agent/mm/internal/question"
	"github.com/mm-agent/mm/internal/regularfile"
)

// attachStdin is mm -p's question with what stdin gives after it (cat log
// | mm -p "explain"), bounded (question.Attach), and the line that tells
// the person it was cut ("" when it was not).
func attachStdin(q string, stdin io.Reader) (string, string, error) {
	data, cut, err := question.ReadAttached(stdin)
	if err != nil {
		return "", "", fmt.Errorf("read stdin: %w", err)
	}
	out, kept, err := question.Attach(q, data, cut)
	if err != nil || kept == 0 {
		return out, "", err
	}
	return out, fmt.Sprintf("mm -p: stdin was cut to its first %s (mm's limit for stdin beside a question, %s): the model reads no more of it",
		regularfile.FormatSize(int64(kept)), regularfile.FormatSize(question.MaxAttachedBytes)), nil
}
