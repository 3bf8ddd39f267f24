//go:build !unix

package tui

import (
	"errors"
	"os"
)

// terminal stands in where the window cannot run: openTerminal never
// returns one, so its methods are never called.
type terminal struct {
	keys         chan input
	winch, stops chan os.Signal
}

func openTerminal(in, out *os.File) (*terminal, error) {
	return nil, errors.New("the window needs a Unix terminal; use mm for the line mode or mm -p")
}

func (t *terminal) enter() error     { return errors.ErrUnsupported }
func (t *terminal) leave()           {}
func (t *terminal) size() (int, int) { return 80, 24 }
func (t *terminal) start() error     { return errors.ErrUnsupported }
func (t *terminal) stop()            {}
