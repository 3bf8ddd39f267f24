package cli

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/llm/openai"
)

// toolSupport is what a server says of a model's tools.
type toolSupport int

const (
	toolsUnknown toolSupport = iota // the server does not say (llama.cpp, LM Studio)
	toolsYes
	toolsNo
)

// mark is what mm init's list writes after a model.
func (t toolSupport) mark() string {
	switch t {
	case toolsYes:
		return " (tools)"
	case toolsNo:
		return " (no tools)"
	}
	return ""
}

// foundModel is one model a server listed, with what it says of its
// tools.
type foundModel struct {
	ref    string
	server openai.LocalServer
	tools  toolSupport
}

// askTools asks each model's server, at once, whether it runs the model
// with tool support (an Ollama's capabilities; openai.TakesToolsOn), each
// bounded by probeTimeout.
func askTools(ctx context.Context, client *http.Client, found []foundModel, names []string) {
	var wg sync.WaitGroup
	for i := range found {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, probeTimeout)
			defer cancel()
			switch takes, known := openai.TakesToolsOn(ctx, client, found[i].server.BaseURL, names[i]); {
			case known && takes:
				found[i].tools = toolsYes
			case known:
				found[i].tools = toolsNo
			}
		})
	}
	wg.Wait()
}

// defaultModel is the model mm init offers first: the first with tool
// support, else the first whose server does not say, else the first.
func defaultModel(found []foundModel) int {
	for _, want := range []toolSupport{toolsYes, toolsUnknown} {
		for i, f := range found {
			if f.tools == want {
				return i
			}
		}
	}
	return 0
}

// whyPicked says, without a terminal, which model mm init took and why.
func whyPicked(found []foundModel, i int) string {
	ref := frontend.VisibleLine(found[i].ref)
	switch found[i].tools {
	case toolsYes:
		return fmt.Sprintf("mm init: using %s, the first of %d model(s) found that supports tools (choose another with --model)", ref, len(found))
	case toolsUnknown:
		return fmt.Sprintf("mm init: using %s, the first of %d model(s) found (its server does not say whether it supports tools; choose another with --model)", ref, len(found))
	}
	return fmt.Sprintf("mm init: using %s, the first of %d model(s) found; %s (choose another with --model)", ref, len(found), noToolsAdvice)
}

// noToolsAdvice is said when no model found supports tools.
const noToolsAdvice = "none of them supports tools, so the agent can only answer: fetch one that does (ollama pull qwen3:8b)"
