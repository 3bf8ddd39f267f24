package mmconfigs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Schema is a JSON Schema a configuration gives (structuredOutput's file, a
// wasm tool's inputSchema), checked and ready to validate against.
type Schema struct {
	// JSON is the schema, compact, as a server or a model is sent it.
	JSON json.RawMessage
	// Resolved validates instances.
	Resolved *jsonschema.Resolved
}

// parseSchema reads data as a JSON Schema (draft 2020-12 or 7, as
// jsonschema-go reads them). Its errors start "not valid JSON: …" or "not
// a valid JSON Schema: …" and fit on one line.
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
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("not a valid JSON Schema: %s", schemaDecodeError(err))
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		msg := strings.TrimPrefix(firstLine(err.Error()), "jsonschema.Schema: ")
		return nil, fmt.Errorf("not a valid JSON Schema: %s", strings.TrimPrefix(msg, "<anonymous schema>: "))
	}
	var compact bytes.Buffer
	_ = json.Compact(&compact, data) // valid JSON, decoded above
	return &Schema{JSON: compact.Bytes(), Resolved: rs}, nil
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

// schemaDecodeError words jsonschema-go's decoding error without the Go
// types it names: "minimum: cannot unmarshal string".
func schemaDecodeError(err error) string {
	s := strings.TrimPrefix(firstLine(err.Error()), "json: ")
	field := ""
	if i := strings.Index(s, "Go struct field "); i >= 0 {
		f := s[i+len("Go struct field "):]
		if j := strings.IndexByte(f, ' '); j >= 0 {
			f = f[:j]
		}
		field = f[strings.LastIndexByte(f, '.')+1:]
	}
	if i := strings.Index(s, " into Go"); i >= 0 {
		s = s[:i]
	}
	if field != "" {
		return field + ": " + s
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
