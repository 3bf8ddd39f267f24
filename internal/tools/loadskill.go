package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/skills"
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
func (t LoadSkill) Run(ctx context.Context, env Env, input json.RawMessage) Result {
	return runPlanned(ctx, t, env, input)
}

// Target is the skill.
func (LoadSkill) Target(_ Env, input json.RawMessage) Target {
	name, _ := decodeSkillName(input)
	return Target{Subject: name}
}

// Plan decodes the skill's name.
func (t LoadSkill) Plan(env Env, input json.RawMessage) (Call, error) {
	name, err := decodeSkillName(input)
	if err != nil {
		return Call{}, err
	}
	return ran(Target{Subject: name}, func(context.Context) Result { return t.load(env, name) }), nil
}

// decodeSkillName is the one reading of a load_skill call's input.
func decodeSkillName(input json.RawMessage) (string, error) {
	var name string
	if err := DecodeInput(input, Field{"name", true, &name}); err != nil {
		return "", refuse(BadInput(LoadSkillName, err))
	}
	return strings.TrimPrefix(strings.TrimSpace(name), "$"), nil
}

// load reads the skill's SKILL.md.
func (t LoadSkill) load(env Env, name string) Result {
	sk, ok := t.Skills.Get(name)
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
