package acpconn

import (
	"encoding/json"
	"fmt"

	acp "github.com/coder/acp-go-sdk"
)

// clientSamples and agentSamples are what each end of an mm hand-off reads
// and writes first, as they look on the wire: decoding and encoding each
// once fills encoding/json's caches for the SDK's types (their fields,
// found by reflection), which would otherwise cost the first message of
// each kind a few tenths of a millisecond on the hand-off's critical path.
// They are made when the warm-up runs, not as package variables, which
// every start of mm would initialise.
func clientSamples() (reads []warmSample, writes []any) {
	return []warmSample{
			{`{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"sessionCapabilities":{"close":{},"list":{}}},"agentInfo":{"name":"mm","version":"v"},"authMethods":[]}`, new(acp.InitializeResponse)},
			{`{"sessionId":"s"}`, new(acp.NewSessionResponse)},
			{`{"_meta":{"mm":1}}`, new(acp.LoadSessionResponse)},
			{`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"t"}}}`, new(acp.SessionNotification)},
			{`{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":"t","kind":"execute","status":"pending"}}`, new(acp.SessionNotification)},
			{`{"stopReason":"end_turn"}`, new(acp.PromptResponse)},
		}, []any{
			acp.NewSessionRequest{Cwd: "/", McpServers: []acp.McpServer{}},
			acp.PromptRequest{SessionId: "s", Prompt: []acp.ContentBlock{acp.TextBlock("t")}},
		}
}

func agentSamples() (reads []warmSample, writes []any) {
	return []warmSample{
			{`{"protocolVersion":1,"clientInfo":{"name":"mm","version":""}}`, new(acp.InitializeRequest)},
			{`{"cwd":"/","mcpServers":[]}`, new(acp.NewSessionRequest)},
			{`{"sessionId":"s","prompt":[{"type":"text","text":"t"}]}`, new(acp.PromptRequest)},
		}, []any{
			acp.InitializeResponse{ProtocolVersion: 1, AgentCapabilities: acp.AgentCapabilities{LoadSession: true}, AgentInfo: &acp.Implementation{Name: "mm"}, AuthMethods: []acp.AuthMethod{}},
			acp.NewSessionResponse{SessionId: "s"},
			acp.SessionNotification{SessionId: "s", Update: acp.UpdateAgentMessageText("t")},
			acp.PromptResponse{StopReason: acp.StopReasonEndTurn},
		}
}

type warmSample struct {
	wire string
	into any
}

// WarmClient fills the caches of what a client of an mm reads and
// writes, in the background: call it as the agent's process starts.
func WarmClient() { go func() { _ = warm(clientSamples()) }() }

// WarmAgent fills the caches of what an mm agent reads and writes, in the
// background: call it as mm -acp starts.
func WarmAgent() { go func() { _ = warm(agentSamples()) }() }

// warm decodes and encodes each sample once; the errors are the test's
// (warm_test.go): a sample the SDK no longer reads would warm nothing.
func warm(reads []warmSample, writes []any) error {
	for _, r := range reads {
		if err := json.Unmarshal([]byte(r.wire), r.into); err != nil {
			return fmt.Errorf("%T: %w", r.into, err)
		}
	}
	for _, w := range writes {
		if _, err := json.Marshal(w); err != nil {
			return fmt.Errorf("%T: %w", w, err)
		}
	}
	return nil
}
