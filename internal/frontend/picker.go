package frontend

import (
	"fmt"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// The list a person picks a saved session from: /resume alone, and mm
// --resume without an id, in the line mode (numbered) and the window (with
// the arrow keys).

// PickHeader opens the list.
const PickHeader = "Saved sessions of this folder, the latest first:"

// NoSessions is what /resume alone says when there is none to pick.
const NoSessions = "(no saved session in this folder to resume: mm sessions --all lists every folder's)"

// PickLine is one saved session of the list, on one line, made visible:
// its name, how long ago it last saved something, its turns and its first
// question; or why it cannot be resumed.
func PickLine(s orchestrator.SavedSession) string {
	line := ""
	if s.Name != "" {
		line = s.Name + " · "
	}
	line += s.Age + " · "
	if s.Problem != "" {
		return VisibleLine(line + "cannot be resumed: " + s.Problem)
	}
	turns := fmt.Sprintf("%d turns", s.Turns)
	if s.Turns == 1 {
		turns = "1 turn"
	}
	return VisibleLine(line + turns + " · " + s.First)
}
