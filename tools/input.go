package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mm-agent/mm/internal/jsonkind"
)

// field is one property of a built-in tool's input, decoded into dst:
// a *string, *bool or *float64.
type field struct {
	name     string
	required bool
	dst      any
}

// decodeInput decodes a tool's input object into fields. Its errors are
// written for the model to correct its call ("missing \"command\""). It is
// lenient where local models often slip: unknown properties are ignored,
// null is absence (of the whole input too), a number or a boolean may come
// as a string, and the object may come encoded inside a JSON string.
func decodeInput(input json.RawMessage, fields ...field) error {
	obj, err := InputObject(input)
	if err != nil {
		return err
	}
	for _, f := range fields {
		raw, ok := obj[f.name]
		if !ok || jsonkind.Of(raw) == "null" {
			if f.required {
				return fmt.Errorf("missing %q", f.name)
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

func decodeField(f field, raw json.RawMessage) error {
	k := jsonkind.Of(raw)
	switch dst := f.dst.(type) {
	case *string:
		if k != "string" {
			return fmt.Errorf("%q must be a string, not %s", f.name, jsonkind.Article(k))
		}
		return json.Unmarshal(raw, dst)
	case *float64:
		if k == "string" {
			var s string
			_ = json.Unmarshal(raw, &s)
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				return fmt.Errorf("%q must be a number, not %s", f.name, strconv.Quote(s))
			}
			*dst = v
			return nil
		}
		if k != "number" {
			return fmt.Errorf("%q must be a number, not %s", f.name, jsonkind.Article(k))
		}
		return json.Unmarshal(raw, dst)
	case *bool:
		if k == "string" {
			var s string
			_ = json.Unmarshal(raw, &s)
			v, err := strconv.ParseBool(strings.TrimSpace(s))
			if err != nil {
				return fmt.Errorf("%q must be true or false, not %s", f.name, strconv.Quote(s))
			}
			*dst = v
			return nil
		}
		if k != "boolean" {
			return fmt.Errorf("%q must be true or false, not %s", f.name, jsonkind.Article(k))
		}
		return json.Unmarshal(raw, dst)
	}
	return errors.New("internal error: unsupported field type")
}
