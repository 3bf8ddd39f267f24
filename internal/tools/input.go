package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mm-agent/mm/internal/jsonkind"
)

// Field is one property of a tool's input, decoded into Dst: a *string,
// *bool or *float64.
type Field struct {
	Name     string
	Required bool
	Dst      any
}

// DecodeInput decodes a tool's input object into fields. Its errors are
// written for the model to correct its call ("missing \"command\""). It is
// lenient where local models often slip: unknown properties are ignored,
// null is absence (of the whole input too), a number or a boolean may come
// as a string, and the object may come encoded inside a JSON string. A
// property that differs from one of fields only by case is refused: Go's
// own decoding would take it for that field, and a person must never be
// asked about one value while another is used.
func DecodeInput(input json.RawMessage, fields ...Field) error {
	obj, err := InputObject(input)
	if err != nil {
		return err
	}
	if err := caseTwins(obj, fields); err != nil {
		return err
	}
	for _, f := range fields {
		raw, ok := obj[f.Name]
		if !ok || jsonkind.Of(raw) == "null" {
			if f.Required {
				return fmt.Errorf("missing %q", f.Name)
			}
			continue
		}
		if err := decodeField(f, raw); err != nil {
			return err
		}
	}
	return nil
}

// InputObject decodes a tool's input as a JSON object, as every tool of mm
// reads its input: empty input and null are an empty object, and an object
// sent inside a JSON string is taken. Its error is written for the model
// to correct its call.
func InputObject(input json.RawMessage) (map[string]json.RawMessage, error) {
	input = bytes.TrimSpace(input)
	if len(input) == 0 || string(input) == "null" {
		return map[string]json.RawMessage{}, nil
	}
	var probe json.RawMessage
	if err := json.Unmarshal(input, &probe); err != nil {
		return nil, fmt.Errorf("not valid JSON (%v)", err)
	}
	if jsonkind.Of(input) == "string" {
		// An object sent as a string: accept it when it holds one.
		var s string
		if json.Unmarshal(input, &s) == nil && jsonkind.Of(json.RawMessage(strings.TrimSpace(s))) == "object" {
			input = json.RawMessage(strings.TrimSpace(s))
		}
	}
	if k := jsonkind.Of(input); k != "object" {
		return nil, fmt.Errorf("want a JSON object, got %s", jsonkind.Article(k))
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(input, &obj); err != nil {
		return nil, fmt.Errorf("not valid JSON (%v)", err)
	}
	if obj == nil {
		obj = map[string]json.RawMessage{}
	}
	return obj, nil
}

// caseTwins refuses a property named like a field but for case.
func caseTwins(obj map[string]json.RawMessage, fields []Field) error {
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		for _, f := range fields {
			if k != f.Name && strings.EqualFold(k, f.Name) {
				return fmt.Errorf("%q is not a parameter (the parameter is %q): send each parameter once, spelt as the schema spells it", k, f.Name)
			}
		}
	}
	return nil
}

func decodeField(f Field, raw json.RawMessage) error {
	k := jsonkind.Of(raw)
	switch dst := f.Dst.(type) {
	case *string:
		if k != "string" {
			return fmt.Errorf("%q must be a string, not %s", f.Name, jsonkind.Article(k))
		}
		return json.Unmarshal(raw, dst)
	case *float64:
		if k == "string" {
			var s string
			_ = json.Unmarshal(raw, &s)
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				return fmt.Errorf("%q must be a number, not %s", f.Name, strconv.Quote(s))
			}
			*dst = v
			return nil
		}
		if k != "number" {
			return fmt.Errorf("%q must be a number, not %s", f.Name, jsonkind.Article(k))
		}
		return json.Unmarshal(raw, dst)
	case *bool:
		if k == "string" {
			var s string
			_ = json.Unmarshal(raw, &s)
			v, err := strconv.ParseBool(strings.TrimSpace(s))
			if err != nil {
				return fmt.Errorf("%q must be true or false, not %s", f.Name, strconv.Quote(s))
			}
			*dst = v
			return nil
		}
		if k != "boolean" {
			return fmt.Errorf("%q must be true or false, not %s", f.Name, jsonkind.Article(k))
		}
		return json.Unmarshal(raw, dst)
	}
	return errors.New("internal error: unsupported field type")
}
