//go:build !unix

package wasm

import (
	"fmt"
	"os"
)

const helperEnv = "MM_WASM_TEST_HELPER"

func helper(string) int {
	fmt.Fprintln(os.Stderr, "helper: needs getrusage")
	return 2
}
