package handoff

import (
	"fmt"
	"strings"

	"github.com/mm-agent/mm/internal/textcut"
)

// The bounds of one asked agent's answer. The asking model reads at most
// MaxToolOutput characters of it; postAsk reads what mm kept, the whole
// answer up to MaxKeptAnswer; the person sees it all as it streams, up to
// MaxStreamedAnswer, where mm ends the hand-off: an agent that never
// stops answering would otherwise grow mm until askTimeout.
const (
	// MaxKeptAnswer is what mm keeps of one answer: 4 MiB, two hundred
	// times what the asking model reads, and a whole book.
	MaxKeptAnswer = 4 << 20
	// MaxStreamedAnswer is how much of one answer mm shows before it ends
	// the hand-off: 64 MiB, past any answer meant to be read.
	MaxStreamedAnswer = 64 << 20
)

// Answer gathers an asked agent's answer as it streams: the first
// keep bytes of it, and how much streamed in all.
type Answer struct {
	keep, hard int
	kept       strings.Builder
	streamed   int
	last       byte
	passed     bool
}

// NewAnswer is an answer that keeps keep bytes and passes hard at more
// than hard (MaxKeptAnswer and MaxStreamedAnswer, or a test's).
func NewAnswer(keep, hard int) *Answer { return &Answer{keep: keep, hard: hard} }

// Write adds one piece; false once the answer passed the hard bound (the
// piece that passed it is not kept).
func (a *Answer) Write(piece string) bool {
	if a.passed || a.streamed+len(piece) > a.hard {
		a.passed = true
		return false
	}
	a.streamed += len(piece)
	if piece != "" {
		a.last = piece[len(piece)-1]
	}
	switch room := a.keep - a.kept.Len(); {
	case len(piece) <= room:
		a.kept.WriteString(piece)
	case room > 0:
		a.kept.Write(textcut.Bytes([]byte(piece[:room]), room))
	}
	return true
}

// Len is how many bytes streamed (and were shown) so far.
func (a *Answer) Len() int { return a.streamed }

// EndsLine says the answer so far ends with a newline.
func (a *Answer) EndsLine() bool { return a.last == '\n' }

// Passed says the answer passed the hard bound.
func (a *Answer) Passed() bool { return a.passed }

// String is what mm kept: the whole answer, or its first bytes and a note
// saying how much more streamed.
func (a *Answer) String() string {
	if a.streamed <= a.kept.Len() {
		return a.kept.String()
	}
	return a.kept.String() + fmt.Sprintf("\n\n[answer cut: mm keeps the first %s of an answer; %s more was shown, not kept]",
		size(a.keep), size(a.streamed-a.kept.Len()))
}

// AnswerTooLongError ends a hand-off whose answer passed the hard bound.
type AnswerTooLongError struct {
	Agent string
	Limit int
}

func (e *AnswerTooLongError) Error() string {
	return fmt.Sprintf("%s's answer passed %s, the most mm shows of one answer: mm ended the hand-off", e.Agent, size(e.Limit))
}

// size words n bytes for a person: "4 MiB", "1.5 MiB", "12 KiB", "300 bytes".
func size(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
