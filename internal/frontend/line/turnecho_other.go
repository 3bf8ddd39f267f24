//go:build !linux

package line

import "io"

// turnTerminal changes no mode where turnInput does not read during a
// turn (see turnecho_linux.go): the terminal echoes type-ahead as before.
type turnTerminal struct{}

func newTurnTerminal(io.Reader) *turnTerminal { return nil }

func (t *turnTerminal) quiet()     {}
func (t *turnTerminal) answering() {}
func (t *turnTerminal) restore()   {}
func (t *turnTerminal) close()     {}
