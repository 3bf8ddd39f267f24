package mmconfigs

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/hooks"
	"github.com/mm-agent/mm/internal/strictyaml"
	"github.com/mm-agent/mm/internal/tools"
)

// wasmToolKeys are the keys of a wasm tool's entry under tools:.
var wasmToolKeys = []string{"name", "description", "inputSchema", "wasm", "read", "write", "timeout"}

// emptyInput is the input schema of a wasm tool that gives none: an object
// of no properties.
const emptyInput = `{"type":"object","properties":{}}`

// parseTools reads tools:, a list of built-in tools' names and wasm tools'
// entries (maps), in any order. Its errors name their place: "tools: …" for
// the list, "tools[2]: …" for an entry.
func (c *Config) parseTools(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		c.Tools = []string{}
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		var names []string
		err := decodeScalar(n, &names, "a list of tool names and wasm tools")
		if err == nil {
			err = strictyaml.Errorf(n, "want a list of tool names and wasm tools")
		}
		return fmt.Errorf("tools: %w", err)
	}
	c.Tools = []string{}
	for i, item := range n.Content {
		if item.Kind == yaml.MappingNode {
			def, err := c.parseWasmTool(item)
			if err != nil {
				return strictyaml.At(item, fmt.Errorf("tools[%d]: %w", i, err))
			}
			c.WasmTools = append(c.WasmTools, def)
			c.wasmToolAt = append(c.wasmToolAt, i)
			line := item.Line
			if k := keyOf(item, "inputSchema"); k != nil {
				line = k.Line
			}
			c.wasmToolLine = append(c.wasmToolLine, line)
			continue
		}
		var t string
		if err := decodeScalar(item, &t, "a tool name, or a map defining a wasm tool"); err != nil {
			return fmt.Errorf("tools[%d]: %w", i, err)
		}
		if !slices.Contains(toolNames, t) {
			return strictyaml.Errorf(item, "tools: unknown tool %q (want some of %s, or a map defining a wasm tool)", t, strings.Join(toolNames, ", "))
		}
		c.Tools = append(c.Tools, t)
	}
	return nil
}

// parseWasmTool reads one wasm tool's entry.
func (c *Config) parseWasmTool(n *yaml.Node) (tools.WasmDef, error) {
	if err := checkKeys(n, wasmToolKeys...); err != nil {
		return tools.WasmDef{}, err
	}
	var raw struct {
		Name        string   `yaml:"name"`
		Description string   `yaml:"description"`
		Wasm        string   `yaml:"wasm"`
		Read        []string `yaml:"read"`
		Write       []string `yaml:"write"`
		Timeout     string   `yaml:"timeout"`
	}
	var schemaNode *yaml.Node
	// keys are the entry's key nodes: each error is at its key's line.
	keys := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		keys[n.Content[i].Value] = n.Content[i]
		if n.Content[i].Value == "inputSchema" {
			schemaNode = n.Content[i+1]
		}
	}
	at := func(key string, err error) error { return strictyaml.At(keys[key], err) }
	plain := *n
	plain.Content = nil
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "inputSchema" {
			plain.Content = append(plain.Content, n.Content[i], n.Content[i+1])
		}
	}
	if err := plain.Decode(&raw); err != nil {
		return tools.WasmDef{}, strictyaml.DecodeError(err)
	}
	def := tools.WasmDef{Name: raw.Name, Description: strings.TrimSpace(raw.Description)}
	switch {
	case !validToolName(raw.Name):
		return def, at("name", fmt.Errorf("name %q: want 1 to 64 letters, digits, _ or - (the model calls the tool by it)", raw.Name))
	case slices.Contains(toolNames, raw.Name):
		return def, at("name", fmt.Errorf("name %q is a built-in tool's: give the wasm tool another name", raw.Name))
	case def.Description == "":
		return def, at("description", fmt.Errorf("%s: description must not be empty: the model reads it to know when to call the tool", raw.Name))
	case strings.TrimSpace(raw.Wasm) == "":
		return def, at("wasm", fmt.Errorf("%s: wasm must name the tool's module", raw.Name))
	}
	for _, other := range c.WasmTools {
		if other.Name == raw.Name {
			return def, at("name", fmt.Errorf("name %q is given to two wasm tools: give each its own", raw.Name))
		}
	}
	var err error
	if def.Module, err = hooks.ModulePath(c.Dir, raw.Wasm); err != nil {
		return def, at("wasm", fmt.Errorf("%s: %w", raw.Name, err))
	}
	if def.Read, def.Write, err = hooks.Folders(raw.Read, raw.Write); err != nil {
		return def, at(hooks.FoldersKey(raw.Read), fmt.Errorf("%s: %w", raw.Name, err))
	}
	if def.Timeout, err = hooks.ParseTimeout(raw.Timeout, tools.DefaultWasmTimeout); err != nil {
		return def, at("timeout", fmt.Errorf("%s: %w", raw.Name, err))
	}
	data := []byte(emptyInput)
	if schemaNode != nil {
		if data, err = yamlToJSON(schemaNode); err != nil {
			return def, at("inputSchema", fmt.Errorf("%s: inputSchema: %w", raw.Name, err))
		}
	}
	s, err := parseSchema(data)
	if err != nil {
		return def, at("inputSchema", fmt.Errorf("%s: inputSchema: %w", raw.Name, err))
	}
	def.InputSchema = s.JSON // compiled later, into def.Input (CompileSchemas)
	return def, nil
}

// yamlToJSON is a YAML map written as JSON (its keys sorted).
func yamlToJSON(n *yaml.Node) ([]byte, error) {
	if n.Kind != yaml.MappingNode {
		return nil, strictyaml.Errorf(n, "want a map (a JSON Schema written in YAML), not %s", nodeKind(n))
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("cannot be written as JSON: %v", err)
	}
	return b, nil
}

// validToolName reports whether name is what OpenAI-compatible servers take
// as a function's name: 1 to 64 of [a-zA-Z0-9_-].
func validToolName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, c := range name {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}

// nodeKind names what a YAML node holds, for a message.
func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a map"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%q", n.Value)
}
