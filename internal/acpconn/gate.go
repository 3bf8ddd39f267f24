// Package acpconn holds what both ends of mm's ACP connections need around
// github.com/coder/acp-go-sdk.
package acpconn

import "io"

// Gated returns a reader that reads nothing from r until open is closed.
// The SDK's connections start reading as soon as they are made, before
// SetLogger can be called on them (a data race); holding the input back
// until the connection is set up avoids it.
func Gated(r io.Reader, open <-chan struct{}) io.Reader { return gated{r, open} }

type gated struct {
	r    io.Reader
	open <-chan struct{}
}

func (g gated) Read(p []byte) (int, error) {
	<-g.open
	return g.r.Read(p)
}
