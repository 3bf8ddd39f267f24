// Package skills finds the skills an agent may load, in the Agent Skills
// format: a folder holding SKILL.md, whose YAML front matter gives the
// skill's name and description and whose body is its instructions; other
// files (scripts, references) may sit beside it.
//
// Finding them reads each SKILL.md's front matter once, so that a session
// can offer the model one line per skill; the instructions are read when a
// skill is loaded (a $name line of the question, or the load_skill tool).
// Nothing here starts a process or writes a file.
package skills
