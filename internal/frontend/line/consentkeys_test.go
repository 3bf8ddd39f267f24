package line

import (
	"testing"

	"github.com/mm-agent/mm/internal/orchestrator"
)

// TestConsentKeys: the line mode's question offers the "always" answer
// it is given — a bash command's prefix, a whole tool, or none — and its
// saved form; a line answers only with what is offered.
func TestConsentKeys(t *testing.T) {
	none := orchestrator.ConsentRequest{Tool: "bash", Subject: "$X"}
	tool := orchestrator.ConsentRequest{Tool: "read_file", Subject: "a.txt", Always: &orchestrator.AlwaysOffer{For: "read_file"}}
	prefix := orchestrator.ConsentRequest{Tool: "bash", Subject: "go test ./...", Always: &orchestrator.AlwaysOffer{For: `"go test"`}}
	saved := orchestrator.ConsentRequest{Tool: "bash", Subject: "go test ./... && go vet", Always: &orchestrator.AlwaysOffer{For: `"go test" and "go vet"`, SaveTo: "agent.yaml"}}
	for _, tt := range []struct {
		name string
		req  orchestrator.ConsentRequest
		keys string
		// answers are what "a", "s" and "v" give, "-" for no answer.
		a, s, v string
	}{
		{"no always", none, "[y] yes once  [n] no  [v] never for bash › ", "-", "-", "never"},
		{"a whole tool", tool, "[y] yes once  [n] no  [a] always for read_file  [v] never for read_file › ", "always", "-", "never"},
		{"a prefix", prefix, `[y] yes once  [n] no  [a] always for "go test"  [v] never for bash › `, "always", "-", "never"},
		{"saved", saved, `[y] yes once  [n] no  [a] always for "go test" and "go vet"  [s] always, saved to agent.yaml  [v] never for bash › `, "always", "saved", "never"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := consentKeys(tt.req); got != tt.keys {
				t.Errorf("keys %q\nwant %q", got, tt.keys)
			}
			name := map[orchestrator.ConsentAnswer]string{orchestrator.AllowAlways: "always", orchestrator.AllowAlwaysSaved: "saved", orchestrator.RejectAlways: "never"}
			for line, want := range map[string]string{"a": tt.a, "S": tt.s, "never": tt.v} {
				got := "-"
				if a, ok := parseConsent(tt.req, line); ok {
					got = name[a]
				}
				if got != want {
					t.Errorf("%q answers %s, want %s", line, got, want)
				}
			}
		})
	}
}
