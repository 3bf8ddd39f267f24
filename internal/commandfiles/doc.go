// Package commandfiles reads the slash commands a person writes as files,
// as Claude Code's .claude/commands and Codex's prompts are written:
// .mm/commands/<name>.md of the working directory and commands/<name>.md in
// the person's mm folder, each a prompt template that /<name> turns into a
// question, its $ARGUMENTS replaced by what follows the command on its
// line, its description given by its front matter.
//
// Finding them reads the start of each file once, for /help and
// completion; the template is read, as the file is then, when the command
// runs. Nothing here starts a process or writes a file.
package commandfiles
