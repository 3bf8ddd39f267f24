// Package schemacheck compiles the JSON Schemas of a configuration with
// jsonschema-go (drafts 2020-12 and 7) into the validators mmconfigs
// holds. It is apart from mmconfigs so that one package of mm imports
// jsonschema-go: cmd/mm plugs Compile in (cli.Features).
package schemacheck

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/mm-agent/mm/mmconfigs"
)

// Compile resolves schema, JSON that mmconfigs has read and checked, into
// its validator. Its error reads "not a valid JSON Schema: …", on one
// line, without the Go types jsonschema-go names.
func Compile(schema json.RawMessage) (mmconfigs.Validator, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("not a valid JSON Schema: %s", decodeError(err))
	}
	if err := checkBounds(schema); err != nil {
		return nil, fmt.Errorf("not a valid JSON Schema: %w", err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		msg := strings.TrimPrefix(firstLine(err.Error()), "jsonschema.Schema: ")
		return nil, fmt.Errorf("not a valid JSON Schema: %s", strings.TrimPrefix(msg, "<anonymous schema>: "))
	}
	return validator{rs}, nil
}

// validator is a resolved schema whose errors fit on one line.
type validator struct{ rs *jsonschema.Resolved }

// MaxValidate bounds one check of a value: the schema's own bound
// (MaxApplied) keeps it to milliseconds for an answer of any sane size, and
// this keeps a turn from hanging on one that is not.
const MaxValidate = 5 * time.Second

// Validate's error is jsonschema-go's first line: "validating root:
// required: missing properties: ["temp"]".
func (v validator) Validate(instance any) error {
	done := make(chan error, 1)
	go func() { done <- v.rs.Validate(instance) }()
	timer := time.NewTimer(MaxValidate)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("%s", firstLine(err.Error()))
		}
		return nil
	case <-timer.C:
		return fmt.Errorf("checking the value against the schema took longer than %s: simplify the schema", MaxValidate)
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
