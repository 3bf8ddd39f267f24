package builtin

import (
	"context"

	"github.com/mm-agent/mm/internal/llm"
)

// Echo returns the echo model: it answers with exactly the latest user
// message, which shows what reached an agent, and needs no server.
func Echo() llm.Model { return echoModel{} }

// echoModel is the model Echo returns.
type echoModel struct{}

func (echoModel) Stream(ctx context.Context, req llm.Request, onText func(string)) (llm.Reply, error) {
	if err := ctx.Err(); err != nil {
		return llm.Reply{}, err
	}
	text := ""
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == llm.RoleUser {
			text = req.Messages[i].Content
			break
		}
	}
	if text != "" && onText != nil {
		onText(text)
	}
	return llm.Reply{Content: text, FinishReason: "stop"}, nil
}

// ReadsToolSpecs is false: echo never calls a tool.
func (echoModel) ReadsToolSpecs() bool { return false }
