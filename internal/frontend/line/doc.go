// Package line holds mm's line-by-line terminal front ends: the line mode
// (mm, Run), -p (Print) and mm --ask (Ask), with -p's and --ask's JSON
// output (OutputFormat). Each is a thin adapter that writes the
// orchestrator's events as lines — the answer as it streams, wrapped and,
// on a terminal with colours, as markdown; one line per tool call; the ⚙
// block after each turn — and reads the person's input; none holds
// behaviour of its own. What it shares with the window (internal/frontend/tui) is
// in package frontend.
package line
