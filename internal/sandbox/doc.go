// Package sandbox bounds what the tools of a session may touch: where the
// bash tool's commands and the file tools may write, and whether those
// commands may use TCP. The kernel enforces it with Landlock
// (docs/explanation/sandbox.md): a command starts from an OS thread of its
// own, confined before the fork, so that the command and everything it
// starts inherit the bounds while mm itself keeps all its rights; a file
// tool writes from such a thread too, after a check in Go that gives the
// refusal its words.
//
// A Policy is made once per session from its Spec — the mode, the network
// switch, the working directory, the folders the configuration adds — after
// the asker's Ceiling tightened it. Nothing here reads a configuration file
// or a flag: that is mmconfigs' and the command line's.
package sandbox
