package llm

import "context"

// echoModel answers with exactly the latest user message: it shows what
// reached an agent, and needs no server.
type echoModel struct{}

func (echoModel) Stream(ctx context.Context, req Request, onText func(string)) (Reply, error) {
	if err := ctx.Err(); err != nil {
		return Reply{}, err
	}
	text := ""
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == RoleUser {
			text = req.Messages[i].Content
			break
		}
	}
	if text != "" && onText != nil {
		onText(text)
	}
	return Reply{Content: text, FinishReason: "stop"}, nil
}

// ReadsToolSpecs is false: echo never calls a tool.
func (echoModel) ReadsToolSpecs() bool { return false }
