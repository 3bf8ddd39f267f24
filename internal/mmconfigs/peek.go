package mmconfigs

import (
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// Peek is what an asking mm reads of the file of an agent it may ask,
// without loading it: the few top-level keys that describe the agent to
// the asking side (its hooks' input, ask_agent's description). Each is ""
// when the file does not have it as a string.
type Peek struct {
	// Path is the file read.
	Path string
	// Model is its model: as written, $MM_MODEL not read.
	Model string
	// Description is what the agent is for, as written.
	Description string
	// StructuredOutput is the path its structuredOutput key names, space
	// trimmed, relative to the file's folder unless absolute.
	StructuredOutput string
}

// PeekAgent reads those keys of the configuration file at path. Nothing
// else of the file is checked: the asked agent checks its own file when it
// starts, and says what is wrong there.
func PeekAgent(path string) (Peek, error) {
	data, err := ReadFile(path)
	if err != nil {
		return Peek{}, err
	}
	var head map[string]any
	if err := yaml.Unmarshal(data, &head); err != nil {
		return Peek{}, err
	}
	str := func(k string) string { s, _ := head[k].(string); return s }
	return Peek{Path: path, Model: str("model"), Description: str("description"),
		StructuredOutput: strings.TrimSpace(str("structuredOutput"))}, nil
}

// OutputSchema loads the schema p.StructuredOutput names, as the agent
// itself would; nil and no error when it names none.
func (p Peek) OutputSchema() (*OutputSchema, error) {
	ref := p.StructuredOutput
	if ref == "" {
		return nil, nil
	}
	abs := ref
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(filepath.Dir(p.Path), ref)
	}
	return LoadOutputSchema(ref, abs)
}
