// Package schemacheck compiles the JSON Schemas of a configuration with
// jsonschema-go (drafts 2020-12 and 7) into the validators mmconfigs
// holds. It is apart from mmconfigs so that one package of mm imports
// jsonschema-go (internal/archtest): the command line passes Compile to
// Config.CompileSchemas, and mmconfigs' tests give a compiler of their own.
package schemacheck

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/mm-agent/mm/internal/mmconfigs"
)

// Compile resolves schema, JSON that mmconfigs has read and checked, into
// its validator. Its error reads "not a valid JSON Schema: …", on one
// line, without the Go types jsonschema-go names.
//
// A schema past the bounds of bounds.go (its depth, the subschemas it
// applies to one value, a $ref that comes back to itself in place) is
// refused here, with the bound: jsonschema-go would recurse without end.
func Compile(schema json.RawMessage) (mmconfigs.Validator, error) {
	var raw any
	if err := json.Unmarshal(schema, &raw); err != nil {
		return nil, fmt.Errorf("not a valid JSON Schema: %s", decodeError(err))
	}
	if d := depthOf(raw, MaxSchemaDepth+1); d > MaxSchemaDepth {
		return nil, fmt.Errorf("not a valid JSON Schema: it nests deeper than %d levels, the limit of a schema mm compiles", MaxSchemaDepth)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("not a valid JSON Schema: %s", decodeError(err))
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		msg := strings.TrimPrefix(firstLine(err.Error()), "jsonschema.Schema: ")
		return nil, fmt.Errorf("not a valid JSON Schema: %s", strings.TrimPrefix(msg, "<anonymous schema>: "))
	}
	if err := checkBounds(raw); err != nil {
		return nil, fmt.Errorf("not a valid JSON Schema: %w", err)
	}
	return validator{validate: rs.Validate, timeout: ValidateTimeout}, nil
}

// ValidateTimeout bounds one validation: the bounds of a schema bound its
// work for each value, and this the whole of it, however large the value
// (uniqueItems over a long list compares each item with each other).
const ValidateTimeout = 5 * time.Second

// validator is a resolved schema whose errors fit on one line.
type validator struct {
	validate func(instance any) error
	timeout  time.Duration
}

// Validate's error is jsonschema-go's first line: "validating root:
// required: missing properties: ["temp"]". A value nested deeper than
// MaxValueDepth is refused unread, and a validation that takes longer
// than the timeout ends with an error (its goroutine finishes on its
// own: the schema's bounds bound its work).
func (v validator) Validate(instance any) error {
	if d := depthOf(instance, MaxValueDepth+1); d > MaxValueDepth {
		return fmt.Errorf("validating root: the value nests deeper than %d levels, the limit of what mm validates", MaxValueDepth)
	}
	done := make(chan error, 1)
	go func() { done <- v.validate(instance) }()
	timer := time.NewTimer(v.timeout)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("%s", firstLine(err.Error()))
		}
		return nil
	case <-timer.C:
		return fmt.Errorf("validating root: validating took longer than %s, the limit: the value is too large for this schema", v.timeout)
	}
}

// decodeError words jsonschema-go's decoding error without the Go types
// it names: "minimum: cannot unmarshal string".
func decodeError(err error) string {
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
