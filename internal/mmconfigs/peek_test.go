package mmconfigs

import (
	"path/filepath"
	"testing"
)

// TestPeekAgent: what an asking mm reads of an asked agent's file — its
// model, description and structuredOutput — whatever else the file holds,
// and the schema that structuredOutput names, beside the file.
func TestPeekAgent(t *testing.T) {
	tests := []struct {
		name, body string
		want       Peek
		schema     string // the schema's JSON, "" for none
		err        string
	}{
		{name: "all three", body: "model: ollama/qwen3\ndescription: reviews diffs\nstructuredOutput: ' verdict.json '\n",
			want: Peek{Model: "ollama/qwen3", Description: "reviews diffs", StructuredOutput: "verdict.json"}, schema: `{"type":"object"}`},
		{name: "none, and keys mm does not know", body: "hooks: {}\nunknownKey: 3\n", want: Peek{}},
		{name: "not strings", body: "model: 3\ndescription: [a, b]\n", want: Peek{}},
		{name: "not YAML", body: "model: [\n", err: "yaml: line 1: did not find expected node content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeConfig(t, dir, "verdict.json", `{"type":"object"}`)
			path := writeConfig(t, dir, "agent.expert.yaml", tt.body)
			p, err := PeekAgent(path)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("PeekAgent error %v, want %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Path = path
			if p != tt.want {
				t.Errorf("PeekAgent = %+v, want %+v", p, tt.want)
			}
			o, err := p.OutputSchema()
			switch {
			case err != nil:
				t.Errorf("OutputSchema: %v", err)
			case tt.schema == "" && o != nil, tt.schema != "" && (o == nil || string(o.JSON) != tt.schema || o.Abs != filepath.Join(dir, "verdict.json")):
				t.Errorf("OutputSchema = %+v, want %s beside the file", o, tt.schema)
			}
		})
	}
}

// TestPeekAgentMissing: a file that is not there is an error, for the
// caller to leave what it would have read out.
func TestPeekAgentMissing(t *testing.T) {
	if _, err := PeekAgent(filepath.Join(t.TempDir(), "gone.yaml")); err == nil {
		t.Error("PeekAgent of a missing file: no error")
	}
}
