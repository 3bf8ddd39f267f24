package mmconfigs

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/regularfile"
)

// maxSchemaFileBytes bounds a structuredOutput schema file: the schema is
// sent with every model call and read by asking models, so 256 KiB is
// already far more than any model should read.
const maxSchemaFileBytes = 256 << 10

// OutputSchema is a structuredOutput agent's schema: its final answer is
// JSON valid against it.
type OutputSchema struct {
	// Path is the file as written in the configuration; Abs, absolute.
	Path, Abs string
	// Name is what the model server is told the schema is called: the
	// file's name without .json, made of [a-zA-Z0-9_-] (OpenAI's rule).
	Name string
	Schema
}

// LoadOutputSchema reads and checks the schema file at abs; path is how the
// configuration names it. Its error names the file on one line.
func LoadOutputSchema(path, abs string) (*OutputSchema, error) {
	data, err := regularfile.ReadFile(abs, maxSchemaFileBytes, "a schema file")
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", abs, unwrapPath(err))
	}
	s, err := parseSchema(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", abs, err)
	}
	return &OutputSchema{Path: path, Abs: abs, Name: schemaName(abs), Schema: *s}, nil
}

func (c *Config) parseStructuredOutput(n *yaml.Node) error {
	var p string
	if err := decodeScalar(n, &p, "the path of a JSON Schema file"); err != nil {
		return err
	}
	if strings.TrimSpace(p) == "" {
		return errors.New("give the path of a JSON Schema file, or leave the key out")
	}
	o, err := LoadOutputSchema(p, c.abs(p))
	if err != nil {
		return err
	}
	c.StructuredOutput = o
	return nil
}

// schemaName is the file's base name without its extensions, other
// characters than [a-zA-Z0-9_-] made "_", at most 64 of them.
func schemaName(path string) string {
	base := filepath.Base(path)
	for _, ext := range []string{".json", ".schema"} {
		base = strings.TrimSuffix(base, ext)
	}
	name := []byte(base)
	for i, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			name[i] = '_'
		}
	}
	if len(name) > 64 {
		name = name[:64]
	}
	if len(name) == 0 {
		return "answer"
	}
	return string(name)
}

// Check reads answer as the agent's final answer: JSON, valid against the
// schema. It returns the JSON as it will be shown (the answer without the
// white space around it, or the inside of one fenced ```json block the
// model put it in), or the first reason it is not valid, on one line.
func (o *OutputSchema) Check(answer string) (string, error) {
	text := unfence(strings.TrimSpace(answer))
	if text == "" {
		return "", errors.New("the answer is empty, not JSON")
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return "", fmt.Errorf("the answer is not JSON: %v", err)
	}
	if o.Validator == nil {
		return "", ErrNotCompiled
	}
	if err := o.Validator.Validate(v); err != nil {
		msg := strings.TrimPrefix(firstLine(err.Error()), "validating root: ")
		return "", errors.New("the answer does not match the schema: " + msg)
	}
	return text, nil
}

// unfence returns the inside of a text that is one fenced code block
// (```json … ```), else the text: local models often wrap JSON so.
func unfence(s string) string {
	if !strings.HasPrefix(s, "```") || !strings.HasSuffix(s, "```") || len(s) < 6 {
		return s
	}
	inner := s[3 : len(s)-3]
	nl := strings.IndexByte(inner, '\n')
	if nl < 0 || strings.Contains(inner, "```") {
		return s
	}
	if lang := strings.TrimSpace(inner[:nl]); lang != "" && lang != "json" {
		return s
	}
	return strings.TrimSpace(inner[nl+1:])
}
