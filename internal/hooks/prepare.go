package hooks

import (
	"encoding/json"

	"github.com/mm-agent/mm/internal/handoff"
	"github.com/mm-agent/mm/internal/proc"
)

// Prepare readies, in the background, what the first command hook's run of
// cfg needs, when cfg has one: the subreaper and the watchdog
// (internal/proc), where sh is on PATH, and the JSON encoder of a hook's
// input and the decoder of its reply, whose first use builds their caches.
// That run then costs about one process (docs/explanation/performance.md).
// A front end calls it as soon as it has read the configuration; a session
// calls it too, for the front ends that do not. Later calls do nothing.
func Prepare(cfg *Config) {
	if !cfg.hasCommand() {
		return
	}
	if proc.Prepare() {
		go func() {
			shPath()
			_ = warmJSON()
		}()
	}
}

// hasCommand says whether an entry of any event runs a command.
func (c *Config) hasCommand() bool {
	for _, ev := range Events {
		for _, en := range c.Entries(ev) {
			if en.Wasm == "" {
				return true
			}
		}
	}
	return false
}

// warmJSON encodes an input with every object a hook may read and decodes
// a reply with every field, once; the errors are the test's
// (prepare_test.go): a sample that no longer encodes would warm nothing.
func warmJSON() error {
	in := Input{Event: PreToolCall, Tool: &ToolCall{Input: json.RawMessage("{}")}, Ask: &handoff.Ask{}, Asked: &Asked{}}
	if _, err := in.encode(); err != nil {
		return err
	}
	_, err := DecodeReply(PreGeneration, []byte(`{"action":"continue","prompt":"p","context":"c"}`))
	return err
}
