// Command audit is a postToolCall hook, built as a WebAssembly module (see
// ../build.sh), that appends one JSON line per tool call to
// logs/audit.jsonl. Its entry gives it `write: [logs]`: the logs folder is
// the only one it can see.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// input is the part of the hook's input this hook reads.
type input struct {
	Event string `json:"event"`
	Model string `json:"model"`
	Tool  struct {
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"tool"`
	Output string `json:"output"`
}

// line is what audit.jsonl records of one call.
type line struct {
	Time        string          `json:"time"`
	Model       string          `json:"model,omitempty"`
	Tool        string          `json:"tool"`
	ID          string          `json:"id,omitempty"`
	Input       json.RawMessage `json:"input,omitempty"`
	OutputBytes int             `json:"outputBytes"`
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fail("cannot read the hook input: %v", err)
	}
	b, err := json.Marshal(line{
		Time:        time.Now().UTC().Format(time.RFC3339),
		Model:       in.Model,
		Tool:        in.Tool.Name,
		ID:          in.Tool.ID,
		Input:       in.Tool.Input,
		OutputBytes: len(in.Output),
	})
	if err != nil {
		fail("cannot encode the line: %v", err)
	}
	// One write of a whole line, in append mode: two hooks running at once
	// (two tool calls of one reply) do not interleave their lines.
	f, err := os.OpenFile("logs/audit.jsonl", os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		fail("%v", err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		fail("%v", err)
	}
	if err := f.Close(); err != nil {
		fail("%v", err)
	}
	// Nothing on stdout: the call goes on unchanged.
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "audit: "+format+"\n", args...)
	os.Exit(1)
}
