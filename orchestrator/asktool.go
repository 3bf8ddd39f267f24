package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mm-agent/mm/handoff"
	"github.com/mm-agent/mm/llm"
	"github.com/mm-agent/mm/mmconfigs"
	"github.com/mm-agent/mm/tools"
)

const askToolName = "ask_agent"

// askTool is the ask_agent tool: the model's route to a hand-off. It runs
// inside the turn (runToolCall calls run), so Run is never used.
type askTool struct{ s *Session }

// Spec describes ask_agent, reading each agent's description once per
// session.
func (a askTool) Spec() llm.ToolSpec {
	a.s.askSpecOnce.Do(func() { a.s.askSpec = a.spec() })
	return a.s.askSpec
}

func (a askTool) spec() llm.ToolSpec {
	names := a.s.cfg.AgentNames()
	// Each description is in the agent's own file: read them only for a
	// model that reads tool descriptions, so that nothing of an agent is
	// read before it is asked otherwise.
	describe := a.s.model != nil && llm.ReadsToolSpecs(a.s.model)
	var desc strings.Builder
	desc.WriteString("Ask another agent a question and read its answer. The agents:")
	for _, n := range names {
		d := ""
		if describe {
			d = agentLine(a.s.cfg.Agents[n])
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
	// rendered when the call was planned: what the consent said goes
	// along is what goes.
	transcript string
	// messages is how many messages transcript renders.
	messages int
}

// decode is the one reading of an ask_agent call's input. Its error is the
// output the model reads.
func (a askTool) decode(input json.RawMessage) (askInput, error) {
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
		h := a.s.History()
		in.transcript, in.messages = handoff.Transcript(h), len(h)
	}
	return in, nil
}

// Target is the agent asked, for the call's tool lines: as decode reads
// it, without the rest of the checks.
func (a askTool) Target(_ tools.Env, input json.RawMessage) tools.Target {
	var agent string
	_ = tools.DecodeInput(input, tools.Field{Name: "agent", Dst: &agent})
	return tools.Target{Subject: agent}
}

// along says what goes along with the question, for the consent question:
// "" when nothing does.
func (in askInput) along() string {
	if !in.withContext {
		return ""
	}
	return fmt.Sprintf("the conversation so far goes along: %s, %s", tools.Plural(in.messages, "message"), tools.Plural(utf8.RuneCountInString(in.transcript), "character"))
}

func (a askTool) Run(context.Context, tools.Env, json.RawMessage) tools.Result {
	return tools.Result{IsError: true, Output: "ask_agent runs only inside a turn"}
}

// run hands off and returns the output the model reads, the call's summary
// line, and whether a preAsk hook denied the hand-off. It calls start when
// the call starts: once preAsk let it go ahead, before the asked agent
// answers; not at all on a denial.
func (a askTool) run(ctx context.Context, t *turn, in askInput, start func()) (res tools.Result, summary string, denied bool) {
	start = sync.OnceFunc(start)
	req := askRequest{agent: in.agent, question: in.question, via: handoff.ViaTool, withContext: in.withContext, transcript: in.transcript, started: start}
	r := a.s.handOff(ctx, t, req)
	if r.denied {
		out := handoff.DeniedText(r.reason)
		return tools.Result{IsError: true, Output: out}, out, true
	}
	start() // not yet called when the hand-off failed before preAsk
	if r.err != nil {
		out := handoff.FailedText(r.err.Error())
		return tools.Result{IsError: true, Output: out}, out, false
	}
	// The answer is cut, not the postAsk contexts after it: a verdict on a
	// long answer still reaches the model.
	out := handoff.AppendContexts(handoff.ToolOutput(r.answer), r.contexts)
	return tools.Result{Output: out}, handoff.Summary(in.agent, utf8.RuneCountInString(r.answer), r.replaced), false
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
	path := agent.Config
	head, err := readHeads(path, "description", "structuredOutput")
	if err != nil {
		return ""
	}
	var b strings.Builder
	if head[0] != "" {
		b.WriteString(": " + head[0])
	}
	if ref := strings.TrimSpace(head[1]); ref != "" {
		abs := ref
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(filepath.Dir(path), ref)
		}
		sep := ". "
		if b.Len() == 0 {
			sep = ": "
		}
		switch o, err := mmconfigs.LoadOutputSchema(ref, abs); {
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
