package mmconfigs

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// fakeValidator is a compiled schema that remembers its JSON.
type fakeValidator struct{ json string }

func (v fakeValidator) Validate(any) error { return errors.New("checked against " + v.json) }

// TestCompileSchemas: every schema of a configuration is listed with where
// it is given, compiled, and kept where it is used; the first that does
// not compile is a config error worded as Load's own.
func TestCompileSchemas(t *testing.T) {
	files := map[string]string{"t.wasm": "\x00asm", "s.json": `{"type":"object"}`, "agent.yaml": `
structuredOutput: s.json
tools:
  - bash
  - {name: wc, description: counts, wasm: t.wasm, inputSchema: {type: object, required: [text]}}
  - {name: hello, description: greets, wasm: t.wasm}
`}
	c, err, dir := loadIn(t, files)
	if err != nil {
		t.Fatal(err)
	}
	var where []string
	for _, s := range c.Schemas() {
		where = append(where, s.Where+" "+string(s.JSON))
	}
	want := []string{
		"structuredOutput: " + dir + `/s.json {"type":"object"}`,
		`tools[1]: wc: inputSchema {"required":["text"],"type":"object"}`,
		`tools[2]: hello: inputSchema {"type":"object","properties":{}}`,
	}
	if strings.Join(where, "\n") != strings.Join(want, "\n") {
		t.Errorf("Schemas\n got: %q\nwant: %q", where, want)
	}
	compile := func(s json.RawMessage) (Validator, error) { return fakeValidator{string(s)}, nil }
	if err := c.CompileSchemas(compile); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		what string
		v    interface{ Validate(any) error }
		want string
	}{
		{"structuredOutput", c.StructuredOutput.Validator, `checked against {"type":"object"}`},
		{"wc", c.WasmTools[0].Input, `checked against {"required":["text"],"type":"object"}`},
		{"hello", c.WasmTools[1].Input, `checked against {"type":"object","properties":{}}`},
	} {
		if tt.v == nil {
			t.Errorf("%s: not compiled", tt.what)
			continue
		}
		if err := tt.v.Validate(nil); err == nil || err.Error() != tt.want {
			t.Errorf("%s: validator says %v, want %s", tt.what, err, tt.want)
		}
	}

	refuse := func(bad string) Compiler {
		return func(s json.RawMessage) (Validator, error) {
			if strings.Contains(string(s), bad) {
				return nil, errors.New("not a valid JSON Schema: no " + bad)
			}
			return fakeValidator{}, nil
		}
	}
	for bad, want := range map[string]string{
		`"object"}`: `agent.yaml:2: structuredOutput: $DIR/s.json: not a valid JSON Schema: no "object"}`,
		`"text"`:    `agent.yaml:5: tools[1]: wc: inputSchema: not a valid JSON Schema: no "text"`,
		`{}`:        `agent.yaml:6: tools[2]: hello: inputSchema: not a valid JSON Schema: no {}`,
	} {
		c, _, dir := loadIn(t, files)
		err := c.CompileSchemas(refuse(bad))
		var ce *Error
		if !errors.As(err, &ce) || ce.Path != "agent.yaml" || err.Error() != strings.ReplaceAll(want, "$DIR", dir) {
			t.Errorf("compiling with %s refused\n got: %#v\nwant: %s", bad, err, want)
		}
	}
}

// TestWalkCompiles: Walk with a compiler makes a schema that does not
// compile the file's error, and goes no deeper.
func TestWalkCompiles(t *testing.T) {
	_, _, dir := loadIn(t, map[string]string{"s.json": `{}`, "b.yaml": "model: echo/b\n",
		"agent.yaml": "structuredOutput: s.json\nmmConfigs: {b: b.yaml}\n"})
	refuse := func(json.RawMessage) (Validator, error) { return nil, errors.New("not a valid JSON Schema: no") }
	var seen []string
	ok := Walk("agent.yaml", dir, noenv, refuse, func(p string, c *Config, err error) {
		seen = append(seen, p+" "+errText(err))
	})
	want := "agent.yaml agent.yaml:1: structuredOutput: " + dir + "/s.json: not a valid JSON Schema: no"
	if ok || strings.Join(seen, "\n") != want {
		t.Errorf("Walk = %v, visited\n%s\nwant\n%s", ok, strings.Join(seen, "\n"), want)
	}
}

func errText(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}
