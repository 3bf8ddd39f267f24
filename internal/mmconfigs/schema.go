package mmconfigs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Schema is a JSON Schema a configuration gives (structuredOutput's file, a
// wasm tool's inputSchema), checked, and once compiled (CompileSchemas)
// ready to validate against.
type Schema struct {
	// JSON is the schema, compact, as a server or a model is sent it.
	JSON json.RawMessage
	// Validator validates instances; nil until the schema is compiled.
	Validator Validator
}

// Validator checks an instance (a value as encoding/json decodes it into
// an any) against a compiled JSON Schema: the first reason it is not
// valid, or nil. tools.Validator is the same interface.
type Validator interface {
	Validate(instance any) error
}

// Compiler compiles a schema's JSON into its Validator; its error reads
// "not a valid JSON Schema: …", on one line. mmconfigs only reads and
// checks schemas: the compiler (a JSON Schema library) is plugged in by the
// command line (mmconfigs/schemacheck.Compile), so that one package of mm
// imports it.
type Compiler func(schema json.RawMessage) (Validator, error)

// ErrNotCompiled is the error of a validation against a schema no compiler
// has compiled: a build without a compiler (a test's).
var ErrNotCompiled = errors.New("the JSON Schema was not compiled: this build of mm has no JSON Schema compiler")

// parseSchema reads data as a JSON Schema and checks its structure
// (checkSchemaNode); a Compiler validates the rest later. Its errors start
// "not valid JSON: …" or "not a valid JSON Schema: …" and fit on one line.
func parseSchema(data []byte) (*Schema, error) {
	var raw any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("not valid JSON: more than one value")
	}
	if err := checkSchemaNode(raw, ""); err != nil {
		return nil, fmt.Errorf("not a valid JSON Schema: %v", err)
	}
	var compact bytes.Buffer
	_ = json.Compact(&compact, data) // valid JSON, decoded above
	return &Schema{JSON: compact.Bytes()}, nil
}

// jsonTypes are the names the type keyword takes.
var jsonTypes = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// Keywords whose value is a schema, a map of names to schemas, or a list of
// schemas: where checkSchemaNode looks further.
var (
	schemaKeywords   = []string{"additionalItems", "additionalProperties", "contains", "else", "if", "items", "not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}
	schemaMapKeyword = []string{"$defs", "definitions", "dependentSchemas", "patternProperties", "properties"}
	schemaListKey    = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
)

// checkSchemaNode checks what jsonschema-go lets through or words as Go:
// a schema is an object or a boolean; type names a JSON type; required is
// a list of strings; the keywords that hold schemas hold schemas. at is
// the JSON pointer of n, for the message.
func checkSchemaNode(n any, at string) error {
	if _, ok := n.(bool); ok {
		return nil
	}
	obj, ok := n.(map[string]any)
	if !ok {
		return fmt.Errorf("%s: a schema is an object (or true or false), not %s", pointer(at), kindOf(n))
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, here := obj[k], at+"/"+k
		switch {
		case k == "type":
			if err := checkType(v, here); err != nil {
				return err
			}
		case k == "required":
			list, ok := v.([]any)
			for _, r := range list {
				_, isString := r.(string)
				ok = ok && isString
			}
			if !ok {
				return fmt.Errorf("%s: want a list of property names", pointer(here))
			}
		case slices.Contains(schemaKeywords, k):
			if list, ok := v.([]any); ok && k == "items" {
				v = map[string]any{"allOf": list} // draft 7's list of items
			}
			if err := checkSchemaNode(v, here); err != nil {
				return err
			}
		case slices.Contains(schemaMapKeyword, k):
			m, ok := v.(map[string]any)
			if !ok {
				return fmt.Errorf("%s: want a map of names to schemas, not %s", pointer(here), kindOf(v))
			}
			for _, name := range sortedKeys(m) {
				if err := checkSchemaNode(m[name], here+"/"+name); err != nil {
					return err
				}
			}
		case slices.Contains(schemaListKey, k):
			list, ok := v.([]any)
			if !ok || len(list) == 0 {
				return fmt.Errorf("%s: want a non-empty list of schemas", pointer(here))
			}
			for i, item := range list {
				if err := checkSchemaNode(item, fmt.Sprintf("%s/%d", here, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func checkType(v any, at string) error {
	names, ok := []any{v}, true
	if list, isList := v.([]any); isList {
		names = list
	}
	for _, n := range names {
		s, isString := n.(string)
		if !isString || !slices.Contains(jsonTypes, s) {
			ok = false
		}
	}
	if !ok || len(names) == 0 {
		b, _ := json.Marshal(v)
		return fmt.Errorf("%s: %s is not a type (want one of %s)", pointer(at), b, strings.Join(jsonTypes, ", "))
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// pointer names a place in the schema for a message: "type",
// "properties/city/type", or "the schema" for its root.
func pointer(at string) string {
	if at == "" {
		return "the schema"
	}
	return strings.TrimPrefix(at, "/")
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("%T", v)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
