package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/mm-agent/mm/internal/sandbox/sandboxtest"
)

// noLandlockEnv makes this test binary run the program its arguments name
// as on a kernel without Landlock (TestMain): the scripts' nolandlock.
const noLandlockEnv = "MM_TEST_WITHOUT_LANDLOCK"

// writeNoLandlock writes the scripts' nolandlock command into dir: a shell
// script that runs this test binary with noLandlockEnv set.
func writeNoLandlock(dir string) error {
	path := filepath.Join(dir, "nolandlock")
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	script := fmt.Sprintf("#!/bin/sh\nexec env %s=1 %s \"$@\"\n", noLandlockEnv, strconv.Quote(os.Args[0]))
	return os.WriteFile(path, []byte(script), 0o755)
}

// execWithoutLandlock replaces this process with the program its
// arguments name, under sandboxtest's filter.
func execWithoutLandlock() {
	os.Unsetenv(noLandlockEnv)
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "nolandlock: give a program")
		os.Exit(2)
	}
	path, err := exec.LookPath(os.Args[1])
	if err == nil {
		err = sandboxtest.ExecWithoutLandlock(path, os.Args[1:], os.Environ())
	}
	fmt.Fprintln(os.Stderr, "nolandlock:", err)
	os.Exit(2)
}
