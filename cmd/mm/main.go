// Command mm is an agent CLI for local models whose centre is the ask
// hand-off: one agent asks another named agent a question, through hook
// chains the user controls.
//
// This binary links none of cli.Features — no wasm runtime, no MCP client,
// no JSON Schema compiler, no OTLP export, no A2A client or server — whose
// dependencies would cost every start of mm their initialisers. A run that
// needs one is handed over to mm-full (cmd/mm-full), which has them all.
package main

import "github.com/mm-agent/mm/cmd/mm/cli"

func main() { cli.Main(cli.Features{}) }
