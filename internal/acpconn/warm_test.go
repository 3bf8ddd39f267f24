package acpconn

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestWarmSamples: every sample decodes as the SDK's type and every value
// encodes, so that the warm-up fills the caches it is for; a sample the
// SDK reads differently would warm nothing, silently.
func TestWarmSamples(t *testing.T) {
	for _, side := range []struct {
		name    string
		samples func() ([]warmSample, []any)
	}{{"client", clientSamples}, {"agent", agentSamples}} {
		reads, writes := side.samples()
		if err := warm(reads, writes); err != nil {
			t.Errorf("%s: %v", side.name, err)
		}
		for _, r := range reads {
			// Decoded, each sample says something: a wire form that no
			// longer fits the type would decode to the zero value.
			zero := reflect.New(reflect.TypeOf(r.into).Elem()).Interface()
			if reflect.DeepEqual(r.into, zero) {
				t.Errorf("%s: %s decoded into %T is its zero value", side.name, r.wire, r.into)
			}
			if _, err := json.Marshal(r.into); err != nil {
				t.Errorf("%s: %T does not encode back: %v", side.name, r.into, err)
			}
		}
	}
}
