package orchestrator

import (
	"strings"

	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/projectdocs"
	"github.com/mm-agent/mm/internal/question"
	"github.com/mm-agent/mm/internal/skills"
	"github.com/mm-agent/mm/internal/tools"
)

// skillsIntro opens the list of skills in the system prompt; each skill
// then has one line, "- <name>: <description>".
const skillsIntro = "# Skills\n\nWhen a task matches a skill below, load it with load_skill first and follow it."

// prepareContext finds the session's skills, the person's command files
// and the AGENTS.md files, offers load_skill when there are skills, and
// builds the system prompt: the configuration's, then the AGENTS.md
// files, then the list of skills, then a structuredOutput agent's schema.
// Each part is byte-stable across the sessions of one project (no date,
// no absolute path), so that a local server reuses its cache of the
// prompt. What cannot be read is a warning.
func (s *Session) prepareContext(env map[string]string) {
	getenv := func(k string) string { return env[k] }
	set, problems := skills.Find(skills.Folders(s.cfg.Skills, s.cwd, projectdocs.Root(s.cwd), getenv), func(p string) string { return mmconfigs.DisplayPath(p, s.cwd) })
	s.skills = set
	s.home = env["HOME"]
	s.warnings = append(s.warnings, problems...)
	s.findCommandFiles(getenv)
	parts := []string{s.cfg.System}
	if s.cfg.ProjectDocs {
		docs, problems := projectdocs.Read(s.cwd, getenv)
		s.warnings = append(s.warnings, problems...)
		if p := projectdocs.Prompt(docs); p != "" {
			parts = append(parts, p)
		}
	}
	if set.Len() > 0 && s.cfg.ToolEnabled(tools.LoadSkillName) {
		s.tools[tools.LoadSkillName] = tools.LoadSkill{Skills: set}
		s.order = append(s.order, tools.LoadSkillName)
		lines := []string{skillsIntro}
		for _, sk := range set.List() {
			lines = append(lines, sk.ListLine())
		}
		parts = append(parts, strings.Join(lines, "\n"))
	}
	if p := schemaPrompt(s.cfg); p != "" {
		parts = append(parts, p)
	}
	s.system = strings.Join(parts, "\n\n")
}

// expand brings in the files, folders and skills the question's @path and
// $name lines name (package question), each path shown relative to the
// working directory when inside it.
func (s *Session) expand(prompt string) (string, error) {
	show := func(p string) string { return tools.ShowPath(s.cwd, p) }
	out, _, err := question.Expand(prompt, question.Options{Cwd: s.cwd, Home: s.home, Skills: s.skills, Show: show})
	return out, err
}

// System is the system prompt the model reads: the configuration's, the
// project's AGENTS.md files and the list of skills.
func (s *Session) System() string { return s.system }

// Skills are the session's skills, for a front end's completion of $name.
func (s *Session) Skills() []string { return s.skills.Names() }

// SkillsBanner is the banner's part: "skills: 3", or "" without skills.
func (s *Session) SkillsBanner() string { return s.skills.Banner() }

// Cwd is the session's working directory, where @path lines start.
func (s *Session) Cwd() string { return s.cwd }

// systemPrompt is the configuration's system prompt, and for a
// structuredOutput agent the schema its answer follows: a server that
// ignores response_format leaves the model only this to go by. It is the
// same for every session of the configuration.
func systemPrompt(cfg *mmconfigs.Config) string {
	if p := schemaPrompt(cfg); p != "" {
		return cfg.System + "\n\n" + p
	}
	return cfg.System
}

// schemaPrompt is the system prompt's last part for a structuredOutput
// agent, "" for others.
func schemaPrompt(cfg *mmconfigs.Config) string {
	if cfg.StructuredOutput == nil {
		return ""
	}
	return "Your final answer is JSON alone, with no text around it, valid against this JSON Schema:\n" + string(cfg.StructuredOutput.JSON)
}
