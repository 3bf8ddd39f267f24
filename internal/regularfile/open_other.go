//go:build !unix

package regularfile

import "os"

// oNonblock is not needed where opening a file never waits for a writer.
const oNonblock = 0

// setBlocking has nothing to clear.
func setBlocking(*os.File) error { return nil }
