package frontend

import "github.com/mm-agent/mm/internal/orchestrator"

// ConsentAlways is the "always" answer of req in words, made visible:
// `always for "go test"` (a bash command's prefixes), `always for
// read_file`; "" when none is offered.
func ConsentAlways(req orchestrator.ConsentRequest) string {
	if req.Always == nil {
		return ""
	}
	return Visible("always for " + req.Always.For)
}

// ConsentSaved is the saved "always" answer of req in words, made
// visible: `always for "go test", saved to agent.yaml`; "" when it cannot
// be saved.
func ConsentSaved(req orchestrator.ConsentRequest) string {
	if req.Always == nil || req.Always.SaveTo == "" {
		return ""
	}
	return ConsentAlways(req) + Visible(", saved to "+req.Always.SaveTo)
}
