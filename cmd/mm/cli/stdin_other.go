//go:build !linux

package cli

import (
	"context"
	"io"
	"os"
)

// lineInput is os.Stdin: only Linux can open it again to read it without
// blocking. A signal that ends mm in the line mode ends it exitGrace later.
func lineInput(context.Context) (in io.ReadCloser, done func()) { return os.Stdin, func() {} }
