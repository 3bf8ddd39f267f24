package mmconfigs

import (
	"encoding/json"
	"strconv"
)

// SchemaAt is one JSON Schema of a configuration and where it is given, as
// a config error names it: "structuredOutput: /abs/weather.json" or
// "tools[2]: upper: inputSchema", at Line of the file (0: not known).
type SchemaAt struct {
	Where string
	Line  int
	JSON  json.RawMessage
	// set keeps the compiled validator where the schema is used.
	set func(Validator)
}

// Schemas are the JSON Schemas c gives — structuredOutput's, then each wasm
// tool's input schema in the order written — for a compiler to compile.
func (c *Config) Schemas() []SchemaAt {
	var all []SchemaAt
	if o := c.StructuredOutput; o != nil {
		all = append(all, SchemaAt{Where: "structuredOutput: " + o.Abs, Line: c.structuredOutputLine, JSON: o.JSON,
			set: func(v Validator) { o.Validator = v }})
	}
	for i := range c.WasmTools {
		t := &c.WasmTools[i]
		at, line := i, 0
		if i < len(c.wasmToolAt) {
			at, line = c.wasmToolAt[i], c.wasmToolLine[i]
		}
		all = append(all, SchemaAt{Where: "tools[" + strconv.Itoa(at) + "]: " + t.Name + ": inputSchema", Line: line, JSON: t.InputSchema,
			set: func(v Validator) { t.Input = v }})
	}
	return all
}

// CompileSchemas compiles every schema of c with compile and keeps the
// validators. The first schema that does not compile is a config error
// (*Error), worded as Load words its own: "<path>:<line>: structuredOutput:
// <file>: not a valid JSON Schema: …".
func (c *Config) CompileSchemas(compile Compiler) error {
	for _, s := range c.Schemas() {
		v, err := compile(s.JSON)
		if err != nil {
			return &Error{Path: c.Path, Line: s.Line, Msg: s.Where + ": " + err.Error()}
		}
		s.set(v)
	}
	return nil
}
