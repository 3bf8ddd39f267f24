package schemacheck_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/mmconfigs/schemacheck"
)

const weather = `{"type":"object","properties":{"city":{"type":"string"},"temp":{"type":"number"}},"required":["city","temp"]}`

// TestCompile: a schema mmconfigs has read and checked compiles, or its
// error reads as parseSchema's own, on one line, naming no Go type.
func TestCompile(t *testing.T) {
	tests := []struct{ name, schema, err string }{
		{"object", weather, ""},
		{"true", `true`, ""},
		{"draft 7 items", `{"items":[{"type":"string"}]}`, ""},
		{"local ref", `{"$defs":{"c":{"type":"string"}},"properties":{"city":{"$ref":"#/$defs/c"}}}`, ""},
		{"minimum", `{"minimum": "low"}`, `not a valid JSON Schema: minimum: cannot unmarshal string`},
		{"bad ref", `{"$ref": "#/nowhere"}`, `not a valid JSON Schema: JSON Pointer "/nowhere": no schema field "nowhere"`},
		{"bad pattern", `{"type":"string","pattern":"(a"}`, `not a valid JSON Schema: pattern: error parsing regexp: missing closing ): ` + "`(a`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := schemacheck.Compile(json.RawMessage(tt.schema))
			switch {
			case tt.err == "" && (err != nil || v == nil):
				t.Errorf("Compile = %v, %v; want a validator", v, err)
			case tt.err != "" && (err == nil || err.Error() != tt.err):
				t.Errorf("Compile error\n got: %v\nwant: %s", err, tt.err)
			}
		})
	}
}

// TestValidate: a compiled schema's errors are jsonschema-go's first line,
// which a wasm tool's caller reads as is.
func TestValidate(t *testing.T) {
	v, err := schemacheck.Compile(json.RawMessage(weather))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ instance, err string }{
		{`{"city":"Paris","temp":21}`, ""},
		{`{"city":"Paris"}`, `validating root: required: missing properties: ["temp"]`},
		{`{"city":7,"temp":1}`, `validating root: validating /properties/city: type: 7 has type "integer", want "string"`},
		{`[1]`, `validating root: type: [1] has type "array", want "object"`},
	}
	for _, tt := range tests {
		var instance any
		if err := json.Unmarshal([]byte(tt.instance), &instance); err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := v.Validate(instance); err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("Validate(%s) = %q, want %q", tt.instance, got, tt.err)
		}
	}
}

// load writes files in a fresh folder, loads its agent.yaml and compiles
// its schemas, as the command line does; $DIR in a message is the folder.
func load(t *testing.T, files map[string]string) (*mmconfigs.Config, error, string) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := mmconfigs.Load("agent.yaml", dir, func(string) string { return "" })
	if err == nil {
		err = c.CompileSchemas(schemacheck.Compile)
	}
	return c, err, dir
}

// TestConfigErrors: a schema that reads and checks but does not compile is
// the configuration's error, worded as mmconfigs words the others.
func TestConfigErrors(t *testing.T) {
	tests := []struct{ name, agent, schema, want string }{
		{"structuredOutput minimum", "structuredOutput: s.json\n", `{"minimum": "low"}`,
			`agent.yaml:1: structuredOutput: $DIR/s.json: not a valid JSON Schema: minimum: cannot unmarshal string`},
		{"structuredOutput bad ref", "structuredOutput: s.json\n", `{"$ref": "#/nowhere"}`,
			`agent.yaml:1: structuredOutput: $DIR/s.json: not a valid JSON Schema: JSON Pointer "/nowhere": no schema field "nowhere"`},
		{"structuredOutput bad pattern", "structuredOutput: s.json\n", `{"type":"string","pattern":"(a"}`,
			`agent.yaml:1: structuredOutput: $DIR/s.json: not a valid JSON Schema: pattern: error parsing regexp: missing closing ): ` + "`(a`"},
		{"inputSchema bad pattern", "tools:\n  - read_file\n  - {name: wc, description: d, wasm: t.wasm, inputSchema: {type: string, pattern: '(a'}}\n", "{}",
			`agent.yaml:3: tools[1]: wc: inputSchema: not a valid JSON Schema: pattern: error parsing regexp: missing closing ): ` + "`(a`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err, dir := load(t, map[string]string{"agent.yaml": tt.agent, "s.json": tt.schema, "t.wasm": "\x00asm"})
			want := strings.ReplaceAll(tt.want, "$DIR", dir)
			if _, ok := err.(*mmconfigs.Error); !ok || err.Error() != want {
				t.Errorf("error\n got: %#v\nwant: %s", err, want)
			}
		})
	}
}

// TestOutputSchemaCheck: an answer is checked against its compiled schema,
// each error on one line.
func TestOutputSchemaCheck(t *testing.T) {
	c, err, _ := load(t, map[string]string{"agent.yaml": "structuredOutput: schemas/weather.schema.json\n", "schemas/weather.schema.json": weather})
	if err != nil {
		t.Fatal(err)
	}
	o := c.StructuredOutput
	if o.Name != "weather" || o.Path != "schemas/weather.schema.json" || string(o.JSON) != weather {
		t.Errorf("schema %q from %q: %s", o.Name, o.Path, o.JSON)
	}
	tests := []struct{ answer, want, err string }{
		{`{"city":"Paris","temp":21}`, `{"city":"Paris","temp":21}`, ""},
		{"\n  {\"city\":\"Paris\",\"temp\":21}\n", `{"city":"Paris","temp":21}`, ""},
		{"```json\n{\"city\":\"Oslo\",\"temp\":-3}\n```", `{"city":"Oslo","temp":-3}`, ""},
		{"```\n{\"city\":\"Oslo\",\"temp\":-3}\n```", `{"city":"Oslo","temp":-3}`, ""},
		{"It is sunny in Paris.", "", "the answer is not JSON: invalid character 'I' looking for beginning of value"},
		{"", "", "the answer is empty, not JSON"},
		{`{"city":"Paris"}`, "", `the answer does not match the schema: required: missing properties: ["temp"]`},
		{`{"city":7,"temp":1}`, "", `the answer does not match the schema: validating /properties/city: type: 7 has type "integer", want "string"`},
		{"```yaml\ncity: Paris\n```", "", "the answer is not JSON: invalid character '`' looking for beginning of value"},
	}
	for _, tt := range tests {
		got, err := o.Check(tt.answer)
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		if got != tt.want || errText != tt.err {
			t.Errorf("Check(%q) = %q, %q; want %q, %q", tt.answer, got, errText, tt.want, tt.err)
		}
	}
}
