package tools

import (
	"os"
	"testing"
)

// childEnv puts the test binary in child mode: it does one thing a test
// needs done in another process (as another user, or to be killed) and
// exits. See childMain.
const childEnv = "MM_TOOLS_TEST_CHILD"

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		os.Exit(childMain(mode))
	}
	os.Exit(m.Run())
}
