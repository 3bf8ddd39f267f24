package mmconfigs

import (
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mm-agent/mm/internal/sandbox"
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
	// Sandbox is its sandbox: key's mode and network, where they are
	// written as mm reads them; the rest is the agent's to check.
	Sandbox PeekSandbox
}

// PeekSandbox is a sandbox: key as an asking mm reads it: the mode and
// the network switch ("on", "off"), each "" when not written.
type PeekSandbox struct {
	Mode    sandbox.Mode
	Network string
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
		StructuredOutput: strings.TrimSpace(str("structuredOutput")), Sandbox: peekSandbox(head["sandbox"])}, nil
}

// peekSandbox reads a sandbox: value leniently: what is not a mode or a
// network switch is left out.
func peekSandbox(v any) PeekSandbox {
	var s PeekSandbox
	mode := func(v any) {
		if str, ok := v.(string); ok {
			if m, err := sandbox.ParseMode(str); err == nil {
				s.Mode = m
			}
		}
	}
	switch v := v.(type) {
	case string:
		mode(v)
	case map[string]any:
		mode(v["mode"])
		switch n := v["network"].(type) {
		case bool:
			s.Network = sandbox.OnOff(n)
		case string:
			if on, err := sandbox.ParseNetwork(n); err == nil {
				s.Network = sandbox.OnOff(on)
			}
		}
	}
	return s
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
