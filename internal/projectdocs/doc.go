// Package projectdocs reads a project's AGENTS.md files, the cross-tool
// convention for instructions to coding agents: those from the project's
// root (the folder holding .git, found by walking up; git is not run) down
// to the working directory, the nearest last, within one size bound.
//
// What it returns names each file relative to the root, never absolutely,
// so that the system prompt built from it is the same in every session of
// one project, wherever the project is checked out, and a local server's
// prompt cache is reused.
package projectdocs
