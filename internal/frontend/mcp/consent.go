package mcp

import (
	"context"
	"encoding/json"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/orchestrator"
)

// The answers a consent elicitation offers, as the line mode's keys do.
const (
	answerOnce   = "yes once"
	answerAlways = "always"
	answerNo     = "no"
	answerNever  = "never"
)

// consentSchema is the form of a consent elicitation: one choice.
var consentSchema = json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string","title":"Allow this call?",` +
	`"enum":["` + answerOnce + `","` + answerAlways + `","` + answerNo + `","` + answerNever + `"],` +
	`"enumNames":["yes, once","yes, and always for this tool in this session","no","never for this tool in this session"]}},"required":["answer"]}`)

// elicit asks c's client req's consent question: an elicitation, when the
// client can answer one; else, or when the client fails to answer,
// nobody can be asked (ConsentUnavailable), and the call is refused with
// a line saying so, as mm -p and mm serve --a2a refuse it. Declining or
// dismissing the form is a no.
func (s *server) elicit(ctx context.Context, c *call, req orchestrator.ConsentRequest) orchestrator.ConsentAnswer {
	if !canElicit(c.ss) {
		return orchestrator.ConsentUnavailable
	}
	// The question goes out on the call's own request (over HTTP, its
	// stream), and ends with whichever of the call and the question ends
	// first.
	ectx, cancel := context.WithCancel(c.ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	res, err := c.ss.Elicit(ectx, &sdk.ElicitParams{Message: consentMessage(req), RequestedSchema: consentSchema})
	if err != nil {
		if ectx.Err() == nil {
			s.log.Printf("a consent question the client did not answer: %v", err)
		}
		return orchestrator.ConsentUnavailable
	}
	if res.Action != "accept" {
		return orchestrator.RejectOnce
	}
	switch res.Content["answer"] {
	case answerOnce:
		return orchestrator.AllowOnce
	case answerAlways:
		return orchestrator.AllowAlways
	case answerNever:
		return orchestrator.RejectAlways
	}
	return orchestrator.RejectOnce
}

// canElicit says the client said it answers form elicitations.
func canElicit(ss *sdk.ServerSession) bool {
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return false
	}
	e := p.Capabilities.Elicitation
	return e.Form != nil || e.URL == nil
}

// consentMessage is the consent question as the line mode asks it, made
// visible, without its keys: the form offers the answers.
func consentMessage(req orchestrator.ConsentRequest) string {
	head, question := frontend.ConsentQuestion(req, "")
	var b strings.Builder
	for _, l := range head {
		b.WriteString(l.Text + "\n")
	}
	b.WriteString(strings.TrimSpace(question))
	return b.String()
}
