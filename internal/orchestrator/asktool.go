package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/mm-agent/mm/internal/handoff"
	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/tools"
)

// askToolName is ask_agent, the model's route to a hand-off. It is no
// tools.Tool: toolCall dispatches a call of it by name to askCall.
const askToolName = "ask_agent"

// askCall is an ask_agent call inside the tool-hook layer, preToolCall
// run (toolCall): the input decoded once, consent asked with the question
// and what goes along, the hand-off run — it shows the call started once
// preAsk let it go ahead — then postToolCall and ToolEnded.
func (t *turn) askCall(ctx context.Context, c *callInfo, hookAllowed bool) (string, ToolStatus) {
	in, err := decodeAsk(c.input, t.s.History)
	if err == nil {
		rc := ruleCall{Tool: c.name, Subject: in.agent}
		refusal, ruled := t.s.checkRules(rc)
		if refusal != "" {
			return t.callRefused(c, "person", refusal)
		}
		req := c.consentRequest()
		req.Detail, req.Question, req.Along = in.agent, in.question, t.s.alongAsk(in)
		always, offer := t.s.alwaysFor(rc)
		req.Always = offer
		if refusal := t.s.consent(ctx, req, hookAllowed || ruled, always); refusal != "" {
			return t.callRefused(c, "person", refusal)
		}
	}
	if ctx.Err() != nil {
		return cancelledBeforeRun, ToolCancelled // before it ran: no ToolEnded
	}
	if err != nil {
		// A call that does not fit ask_agent: nobody was asked.
		t.callStarted(c)
		res := tools.Refusal(err)
		return t.callEnded(ctx, c, res, res.Output, "")
	}
	h := &handOff{s: t.s, t: t, agent: in.agent, question: in.question, via: handoff.ViaTool,
		withContext: in.withContext, transcript: in.transcript, call: c}
	h.run(ctx)
	if h.denied {
		// A preAsk deny shows as a denial, like a preToolCall deny.
		out := handoff.DeniedText(h.reason)
		return t.callEnded(ctx, c, tools.Result{IsError: true, Output: out}, out, "hook")
	}
	h.callStarted() // not yet shown when the hand-off failed before preAsk
	if h.err != nil {
		out := handoff.FailedText(h.err.Error())
		return t.callEnded(ctx, c, tools.Result{IsError: true, Output: out}, out, "")
	}
	// The answer is cut, not the postAsk contexts after it: a verdict on a
	// long answer still reaches the model.
	out := handoff.AppendContexts(handoff.ToolOutput(h.answer), h.contexts)
	return t.callEnded(ctx, c, tools.Result{Output: out}, handoff.Summary(in.agent, utf8.RuneCountInString(h.answer), h.replaced), "")
}

// askTarget is what an ask_agent call is about, for its tool lines: the
// subject the hooks reference names (the agent, in a call that fits).
func askTarget(input json.RawMessage) tools.Target {
	return tools.Target{Subject: tools.SubjectLine(input)}
}

// askToolSpec describes ask_agent, reading each agent's description once
// per session.
func (s *Session) askToolSpec() llm.ToolSpec {
	s.askSpecOnce.Do(func() {
		// Each description is in the agent's own file: read them only for
		// a model that reads tool descriptions, so that nothing of an
		// agent is read before it is asked otherwise.
		s.askSpec = askSpec(s.cfg, s.model != nil && llm.ReadsToolSpecs(s.model))
	})
	return s.askSpec
}

// askSpec is ask_agent's description of the agents of cfg; describe adds
// what each agent's file or entry says of it (agentLine).
func askSpec(cfg *mmconfigs.Config, describe bool) llm.ToolSpec {
	names := cfg.AgentNames()
	var desc strings.Builder
	desc.WriteString("Ask another agent a question and read its answer. The agents:")
	for _, n := range names {
		d := ""
		if describe {
			d = agentLine(cfg.Agents[n])
		}
		fmt.Fprintf(&desc, "\n- %s%s", n, d)
	}
	desc.WriteString("\nSet withContext to send this conversation along.")
	enum, _ := json.Marshal(names)
	schema := fmt.Sprintf(`{"type":"object","properties":{"agent":{"type":"string","enum":%s,"description":"the agent to ask"},"question":{"type":"string","description":"the question, complete on its own"},"withContext":{"type":"boolean","description":"send the conversation so far along","default":false}},"required":["agent","question"]}`, enum)
	return llm.ToolSpec{Name: askToolName, Description: desc.String(), Parameters: json.RawMessage(schema)}
}

// askInput is an ask_agent call's input, decoded once: the consent
// question shows it, the hand-off sends it.
type askInput struct {
	agent, question string
	withContext     bool
	// transcript is the conversation sent along when withContext is set,
	// rendered when the call was decoded: what the consent said goes
	// along is what goes.
	transcript string
	// messages is how many messages transcript renders.
	messages int
}

// decodeAsk is the one reading of an ask_agent call's input; history is
// the conversation, rendered when withContext is set. Its error is the
// output the model reads.
func decodeAsk(input json.RawMessage, history func() []llm.Message) (askInput, error) {
	var in askInput
	err := tools.DecodeInput(input,
		tools.Field{Name: "agent", Required: true, Dst: &in.agent},
		tools.Field{Name: "question", Required: true, Dst: &in.question},
		tools.Field{Name: "withContext", Dst: &in.withContext})
	if err != nil {
		return in, errors.New("ask_agent: invalid input: " + err.Error())
	}
	if in.agent == "" || strings.TrimSpace(in.question) == "" {
		return in, errors.New(`ask_agent: invalid input: give "agent" and "question"`)
	}
	if in.withContext {
		h := history()
		in.transcript, in.messages = handoff.Transcript(h), len(h)
	}
	return in, nil
}

// along says what goes along with the question, for the consent question:
// "" when nothing does.
func (in askInput) along() string {
	if !in.withContext {
		return ""
	}
	return fmt.Sprintf("the conversation so far goes along: %s, %s", tools.Plural(in.messages, "message"), tools.Plural(utf8.RuneCountInString(in.transcript), "character"))
}

// alongAsk is what the consent question of an ask_agent call says besides
// the question: what goes along, and that the agent runs outside the
// sandbox this session's tools are kept in, when it does.
func (s *Session) alongAsk(in askInput) string {
	parts := []string{}
	if a := in.along(); a != "" {
		parts = append(parts, a)
	}
	if agent, ok := s.cfg.Agents[in.agent]; ok && s.sandbox.Confines() {
		if sb := s.askSandbox(agent, mmconfigs.Peek{}); sb.Mode == handoff.SandboxOutside {
			parts = append(parts, in.agent+" runs outside mm's sandbox")
		}
	}
	return strings.Join(parts, "; ")
}

// maxSchemaShown bounds the schema of a structuredOutput agent that
// ask_agent's description shows, in bytes: a few hundred tokens, so that
// an asking model knows the shape of the answer without the prompt growing
// by a whole document. A longer one is named, not shown.
const maxSchemaShown = 2000

// agentLine is what ask_agent's description says of an asked agent, after
// its name: ": <description>" — its mmConfigs entry's for an agent by
// command or over ssh, whose file is not here to read — and for an mm by
// file whose configuration is structuredOutput, the schema of its JSON
// answer. Best effort: what cannot be read is left out (the hand-off says
// why).
func agentLine(agent mmconfigs.Agent) string {
	if agent.Kind != mmconfigs.AgentFile {
		if agent.Description == "" {
			return ""
		}
		return ": " + agent.Description
	}
	peek, err := mmconfigs.PeekAgent(agent.Config)
	if err != nil {
		return ""
	}
	var b strings.Builder
	if peek.Description != "" {
		b.WriteString(": " + peek.Description)
	}
	if ref := peek.StructuredOutput; ref != "" {
		sep := ". "
		if b.Len() == 0 {
			sep = ": "
		}
		switch o, err := peek.OutputSchema(); {
		case err != nil:
			fmt.Fprintf(&b, "%sAnswers JSON (its schema %s cannot be read)", sep, filepath.Base(ref))
		case len(o.JSON) > maxSchemaShown:
			fmt.Fprintf(&b, "%sAnswers JSON valid against the schema %s (%d bytes, too long to show)", sep, filepath.Base(ref), len(o.JSON))
		default:
			fmt.Fprintf(&b, "%sAnswers JSON valid against: %s", sep, o.JSON)
		}
	}
	return b.String()
}
