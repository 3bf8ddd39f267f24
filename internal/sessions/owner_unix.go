//go:build unix

package sessions

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ownedByMe refuses a file or folder of another user: a session file is
// read and resumed only by the person who wrote it.
func ownedByMe(path string, fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) == os.Getuid() {
		return nil
	}
	return fmt.Errorf("%s: belongs to another user (uid %d): mm reads only your own sessions", path, st.Uid)
}
