package mmconfigs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// loadIn writes files (name → content) in a fresh folder and loads its
// agent.yaml; $DIR in want stands for the folder.
func loadIn(t *testing.T, files map[string]string) (*Config, error, string) {
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
	c, err := Load("agent.yaml", dir, noenv)
	return c, err, dir
}

const okSchema = `{"type":"object","properties":{"city":{"type":"string"},"temp":{"type":"number"}},"required":["city","temp"]}`

func TestWasmToolErrors(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"built-in name", "tools:\n  - {name: bash, description: d, wasm: t.wasm}\n",
			`agent.yaml:2: tools[0]: name "bash" is a built-in tool's: give the wasm tool another name`},
		{"ask_agent name", "tools:\n  - bash\n  - {name: ask_agent, description: d, wasm: t.wasm}\n",
			`agent.yaml:3: tools[1]: name "ask_agent" is a built-in tool's: give the wasm tool another name`},
		{"twice", "tools:\n  - {name: wc, description: d, wasm: t.wasm}\n  - {name: wc, description: e, wasm: t.wasm}\n",
			`agent.yaml:3: tools[1]: name "wc" is given to two wasm tools: give each its own`},
		{"bad name", "tools:\n  - {name: \"word count\", description: d, wasm: t.wasm}\n",
			`agent.yaml:2: tools[0]: name "word count": want 1 to 64 letters, digits, _ or - (the model calls the tool by it)`},
		{"no name", "tools:\n  - {description: d, wasm: t.wasm}\n",
			`agent.yaml:2: tools[0]: name "": want 1 to 64 letters, digits, _ or - (the model calls the tool by it)`},
		{"no description", "tools:\n  - {name: wc, wasm: t.wasm}\n",
			`agent.yaml:2: tools[0]: wc: description must not be empty: the model reads it to know when to call the tool`},
		{"no wasm", "tools:\n  - {name: wc, description: d}\n",
			`agent.yaml:2: tools[0]: wc: wasm must name the tool's module`},
		{"missing module", "tools:\n  - {name: wc, description: d, wasm: gone.wasm}\n",
			`agent.yaml:2: tools[0]: wc: wasm: no module at $DIR/gone.wasm`},
		{"unknown key", "tools:\n  - {name: wc, description: d, wasm: t.wasm, mounts: [x]}\n",
			`agent.yaml:2: tools[0]: unknown key "mounts" (known: name, description, inputSchema, wasm, read, write, timeout)`},
		{"folder above", "tools:\n  - {name: wc, description: d, wasm: t.wasm, read: [../x]}\n",
			`agent.yaml:2: tools[0]: wc: folder "../x" must be a folder inside the working directory, not it or above it`},
		{"timeout", "tools:\n  - {name: wc, description: d, wasm: t.wasm, timeout: soon}\n",
			`agent.yaml:2: tools[0]: wc: timeout: "soon" is not a duration (write it like 5s or 1m)`},
		{"schema not a map", "tools:\n  - {name: wc, description: d, wasm: t.wasm, inputSchema: [a]}\n",
			`agent.yaml:2: tools[0]: wc: inputSchema: want a map (a JSON Schema written in YAML), not a list`},
		{"schema bad type", "tools:\n  - name: wc\n    description: d\n    wasm: t.wasm\n    inputSchema: {type: object, properties: {text: {type: text}}}\n",
			`agent.yaml:5: tools[0]: wc: inputSchema: not a valid JSON Schema: properties/text/type: "text" is not a type (want one of array, boolean, integer, null, number, object, string)`},
		{"list of numbers", "tools: [3]\n", `agent.yaml:1: tools: unknown tool "3" (want some of bash, read_file, write_file, edit_file, ask_agent, load_skill, or a map defining a wasm tool)`},
		{"not a list", "tools: bash\n", `agent.yaml:1: tools: want a list of tool names and wasm tools, not "bash"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err, dir := loadIn(t, map[string]string{"agent.yaml": tt.body, "t.wasm": "\x00asm"})
			want := strings.ReplaceAll(tt.want, "$DIR", dir)
			if err == nil || err.Error() != want {
				t.Errorf("Load error\n got: %v\nwant: %s", err, want)
			}
		})
	}
}

func TestWasmToolValues(t *testing.T) {
	c, err, dir := loadIn(t, map[string]string{"tools/wc.wasm": "\x00asm", "agent.yaml": `
tools:
  - read_file
  - name: wc
    description: counts words
    wasm: tools/wc.wasm
    read: [docs/]
    write: [out]
    timeout: 5s
    inputSchema:
      type: object
      properties:
        text: {type: string}
      required: [text]
  - name: hello
    description: says hello
    wasm: tools/wc.wasm
`})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Tools, ","); got != "read_file" {
		t.Errorf("built-in tools %q, want read_file", got)
	}
	if len(c.WasmTools) != 2 {
		t.Fatalf("%d wasm tools, want 2", len(c.WasmTools))
	}
	wc, hello := c.WasmTools[0], c.WasmTools[1]
	tests := []struct{ what, got, want string }{
		{"name", wc.Name, "wc"},
		{"description", wc.Description, "counts words"},
		{"module", wc.Module, filepath.Join(dir, "tools/wc.wasm")},
		{"read", strings.Join(wc.Read, ","), "docs"},
		{"write", strings.Join(wc.Write, ","), "out"},
		{"timeout", wc.Timeout.String(), (5 * time.Second).String()},
		{"schema", string(wc.InputSchema), `{"properties":{"text":{"type":"string"}},"required":["text"],"type":"object"}`},
		{"default schema", string(hello.InputSchema), `{"type":"object","properties":{}}`},
		{"default timeout", hello.Timeout.String(), time.Minute.String()},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.what, tt.got, tt.want)
		}
	}
	if wc.Input != nil || hello.Input != nil {
		t.Error("Load compiled an input schema: the command line's compiler does (CompileSchemas)")
	}
	if c.ToolEnabled("bash") || !c.ToolEnabled("read_file") {
		t.Error("a tools: list with wasm tools must still choose the built-ins")
	}
}

func TestStructuredOutputErrors(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"not JSON", `{"type": "object",}`, `agent.yaml:1: structuredOutput: $DIR/s.json: not valid JSON: invalid character '}' looking for beginning of object key string`},
		{"two values", `{} {}`, `agent.yaml:1: structuredOutput: $DIR/s.json: not valid JSON: more than one value`},
		{"not a schema", `[1, 2]`, `agent.yaml:1: structuredOutput: $DIR/s.json: not a valid JSON Schema: the schema: a schema is an object (or true or false), not a list`},
		{"bad type", `{"type": "strnig"}`, `agent.yaml:1: structuredOutput: $DIR/s.json: not a valid JSON Schema: type: "strnig" is not a type (want one of array, boolean, integer, null, number, object, string)`},
		{"required", `{"type": "object", "required": "city"}`, `agent.yaml:1: structuredOutput: $DIR/s.json: not a valid JSON Schema: required: want a list of property names`},
		{"properties", `{"properties": {"a": 3}}`, `agent.yaml:1: structuredOutput: $DIR/s.json: not a valid JSON Schema: properties/a: a schema is an object (or true or false), not a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err, dir := loadIn(t, map[string]string{"agent.yaml": "structuredOutput: s.json\n", "s.json": tt.schema})
			want := strings.ReplaceAll(tt.want, "$DIR", dir)
			if err == nil || err.Error() != want {
				t.Errorf("Load error\n got: %v\nwant: %s", err, want)
			}
		})
	}
	_, err, dir := loadIn(t, map[string]string{"agent.yaml": "structuredOutput: gone.json\n"})
	if want := "agent.yaml:1: structuredOutput: cannot read " + dir + "/gone.json: no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("missing file\n got: %v\nwant: %s", err, want)
	}
}

// TestOutputSchemaNotCompiled: an answer checked against a schema no
// compiler compiled (a build without one: a test's) is
// refused, saying so, never accepted unchecked.
func TestOutputSchemaNotCompiled(t *testing.T) {
	c, err, _ := loadIn(t, map[string]string{"agent.yaml": "structuredOutput: s.json\n", "s.json": okSchema})
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.StructuredOutput.Check(`{"city":"Paris","temp":21}`)
	if want := "the JSON Schema was not compiled: this build of mm has no JSON Schema compiler"; got != "" || err == nil || err.Error() != want {
		t.Errorf("Check = %q, %v; want \"\", %s", got, err, want)
	}
}

func TestSchemaName(t *testing.T) {
	for path, want := range map[string]string{
		"/a/weather.json":                         "weather",
		"/a/weather.schema.json":                  "weather",
		"/a/my answer.json":                       "my_answer",
		"/a/.json":                                "answer",
		"/a/" + strings.Repeat("x", 70) + ".json": strings.Repeat("x", 64),
	} {
		if got := schemaName(path); got != want {
			t.Errorf("schemaName(%q) = %q, want %q", path, got, want)
		}
	}
}
