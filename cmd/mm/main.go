// Command mm is an agent CLI for local models whose centre is the ask
// hand-off: one agent asks another named agent a question, through hook
// chains the user controls.
package main

import "github.com/mm-agent/mm/cmd/mm/cli"

func main() { cli.Main() }
