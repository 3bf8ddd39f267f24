package permissions

import (
	"errors"
	"fmt"
	"strings"
)

// Rule is one rule as a person wrote it: a tool alone ("read_file", every
// call of it), or a tool and a pattern of what the call acts on ("bash: go
// test *", "write_file: docs/**"), in the form mm's tool lines name a call.
type Rule struct {
	Tool string
	// Pattern is what follows "<tool>:", trimmed; "" for the whole tool.
	Pattern string
	// words is a bash pattern's words.
	words []string
}

// String is the rule as a person writes it: "bash: go test *".
func (r Rule) String() string {
	if r.Pattern == "" {
		return r.Tool
	}
	return r.Tool + ": " + r.Pattern
}

// subject is what a rule's pattern is matched against.
type subject int

const (
	noSubject subject = iota // a tool mm does not decode (MCP, wasm): the whole tool only
	commandSubject
	pathSubject
	nameSubject
)

// subjects are the tools whose calls have a subject a pattern can match:
// the subject tools.Call names (internal/tools/call.go) — bash's command,
// a file tool's path — and ask_agent's agent, load_skill's skill.
var subjects = map[string]subject{
	"bash":       commandSubject,
	"read_file":  pathSubject,
	"write_file": pathSubject,
	"edit_file":  pathSubject,
	"ask_agent":  nameSubject,
	"load_skill": nameSubject,
}

// Parse reads a rule, "<tool>" or "<tool>: <pattern>". known checks the
// tool's name (nil: any name); its error is the rule's. The pattern is
// checked for its tool: a bash pattern is one command of plain words.
func Parse(text string, known func(tool string) error) (Rule, error) {
	tool, pattern, has := strings.Cut(text, ":")
	r := Rule{Tool: strings.TrimSpace(tool), Pattern: strings.TrimSpace(pattern)}
	if r.Tool == "" {
		return r, errors.New(`a rule names a tool: "read_file", "bash: go test *"`)
	}
	if known != nil {
		if err := known(r.Tool); err != nil {
			return r, err
		}
	}
	switch {
	case !has:
		return r, nil
	case r.Pattern == "":
		return r, fmt.Errorf("nothing after %q: write %q alone for every call of it", r.Tool+":", r.Tool)
	}
	switch subjects[r.Tool] {
	case noSubject:
		return r, fmt.Errorf("%s takes no pattern (mm does not know what its calls act on): write %q alone", r.Tool, r.Tool)
	case commandSubject:
		words, err := commandPattern(r.Pattern)
		if err != nil {
			return r, fmt.Errorf("%q: %w", r.String(), err)
		}
		r.words = words
	case pathSubject:
		if strings.ContainsRune(r.Pattern, 0) {
			return r, fmt.Errorf("%q: a path holds no NUL character", r.String())
		}
	}
	return r, nil
}

// SubjectTool reports whether a rule for tool may have a pattern.
func SubjectTool(tool string) bool { return subjects[tool] != noSubject }
