//go:build !unix

package regularfile

import "os"

// oNonblock is not needed where opening a file never waits for a writer.
const oNonblock = 0

// setBlocking has nothing to clear.
func setBlocking(*os.File) error { return nil }

// noReader is never the case where opens do not fail for want of a reader.
func noReader(error) bool { return false }
