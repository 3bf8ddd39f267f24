package frontend

import (
	"context"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// Session is what the interactive front ends (the line mode, the window)
// use of an orchestrator session; *orchestrator.Session is one, a test's
// fake another.
type Session interface {
	// PromptTyped runs one turn on what the person typed, a question or
	// an /ask… line: its @path and $name lines are expanded.
	PromptTyped(ctx context.Context, text string) error
	orchestrator.CommandSession
	// Warnings are what went wrong while it started (an MCP server).
	Warnings() []string
	Close() error
}
