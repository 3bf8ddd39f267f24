package acp

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// childEnv makes the test binary an ACP agent over the fake sessions, to
// stand for "mm -acp" in a hand-off.
const childEnv = "MM_ACP_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		err := Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr, Options{
			Session:    orchestrator.Options{Config: &mmconfigs.Config{DisplayHooks: true}},
			NewSession: (&sessions{}).new,
			Store:      newMemStore(),
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
