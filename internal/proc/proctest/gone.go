//go:build unix

package proctest

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Gone reports whether process pid has ended: it no longer exists, or it
// is a zombie, which is its parent's to reap. Tests wait for it with
// mustend.WaitFor.
func Gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// pid (comm) state …: the state follows the last ')'.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}
