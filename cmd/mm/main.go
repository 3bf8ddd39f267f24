// Command mm is an agent CLI for local models whose centre is the ask
// hand-off: one agent asks another named agent a question, through hook
// chains the user controls.
//
// This package holds the cobra commands and flags only; behaviour lives in
// orchestrator and the front ends.
package main

import (
	"os"
)

// version is mm's version, shown by mm version and in the banner.
const version = "0.1.0"

func main() {
	os.Exit(run(os.Args[1:]))
}
