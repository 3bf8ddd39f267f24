package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/mm-agent/mm/llm"
	"github.com/mm-agent/mm/skills"
)

// LoadSkillName is the tool's name.
const LoadSkillName = "load_skill"

// LoadSkill is the load_skill tool: the model loads a skill of the list the
// system prompt gives, and reads its SKILL.md, as a $name line of the
// question would bring it in. Its description names no skill, so that it
// is the same whatever skills there are.
type LoadSkill struct {
	Skills *skills.Set
}

// Spec describes load_skill.
func (LoadSkill) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name:        LoadSkillName,
		Description: "Load a skill from the list of skills in the system prompt: returns its instructions (SKILL.md) and the folder of its other files.",
		Parameters: schema([]string{"name"},
			prop{"name", "string", "The skill's name, as the list gives it."},
		),
	}
}

// Unasked is true: loading a skill reads only the instructions the person
// installed for the model and changes nothing, so it needs no consent.
func (LoadSkill) Unasked() bool { return true }

// Run reads the skill's SKILL.md as it is now.
func (t LoadSkill) Run(_ context.Context, env Env, input json.RawMessage) Result {
	var name string
	if err := decodeInput(input, field{"name", true, &name}); err != nil {
		return BadInput(LoadSkillName, err)
	}
	sk, ok := t.Skills.Get(strings.TrimPrefix(strings.TrimSpace(name), "$"))
	if !ok {
		return failure(LoadSkillName, "%v", t.Skills.Unknown(name))
	}
	text, err := sk.Message(func(p string) string { return ShowPath(env.Cwd, p) })
	if err != nil {
		return failure(LoadSkillName, "%v", err)
	}
	return Result{Output: text}
}

// ShowPath is p as a model or a person reads it: relative to cwd when it is
// inside it, else absolute.
func ShowPath(cwd, p string) string {
	if rel, err := filepath.Rel(cwd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return rel
	}
	return p
}
