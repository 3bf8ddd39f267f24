package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/rogpeppe/go-internal/testscript"
)

// outputSchema is docs/reference/output-format.schema.json, resolved once.
var outputSchema = sync.OnceValues(func() (*jsonschema.Resolved, error) {
	b, err := os.ReadFile(filepath.Join(repoRoot(), "docs", "reference", "output-format.schema.json"))
	if err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	return s.Resolve(nil)
})

// durations are the figures of a run that change from one run to the next.
var (
	resultDurations = regexp.MustCompile(`"duration_ms":[0-9]+`)
	sessionIDs      = regexp.MustCompile(`"session_id":"[^"]+"`)
	versions        = regexp.MustCompile(`"mm_version":"[^"]+"`)
)

// cmdOutputSchema checks that every line of a file (or stdout) is an
// object of the documented JSON output, and writes the lines with their
// durations set to 0, the session's id written ID and mm's version V, into
// a second file, for cmp (the working folder written $WORK):
//
//	outputschema stdout got.jsonl
func cmdOutputSchema(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: outputschema stdout|file out")
	}
	rs, err := outputSchema()
	if err != nil {
		ts.Fatalf("output-format.schema.json: %v", err)
	}
	text := ts.ReadFile(args[0])
	lines := bytes.Split(bytes.TrimSuffix([]byte(text), []byte("\n")), []byte("\n"))
	var out bytes.Buffer
	for i, line := range lines {
		var v any
		if err := json.Unmarshal(line, &v); err != nil {
			ts.Fatalf("line %d is not JSON (%v): %s", i+1, err, line)
		}
		if err := rs.Validate(v); err != nil {
			ts.Fatalf("line %d does not match the schema: %v\n%s", i+1, err, line)
		}
		line = resultDurations.ReplaceAll(line, []byte(`"duration_ms":0`))
		line = sessionIDs.ReplaceAll(line, []byte(`"session_id":"ID"`))
		line = versions.ReplaceAll(line, []byte(`"mm_version":"V"`))
		line = bytes.ReplaceAll(line, []byte(`"cwd":"`+ts.Getenv("WORK")), []byte(`"cwd":"$WORK`))
		out.Write(line)
		out.WriteByte('\n')
	}
	if err := os.WriteFile(ts.MkAbs(args[1]), out.Bytes(), 0o644); err != nil {
		ts.Fatalf("%v", err)
	}
}
