// Package userconfig says where a person keeps their own mm files: the
// folder $XDG_CONFIG_HOME/mm (~/.config/mm without it), which holds their
// agent.yaml, AGENTS.md, skills and commands, and how a path in it is
// shown to them. It reads the environment it is given and nothing else.
package userconfig
