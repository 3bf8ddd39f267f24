// Package question expands the lines of a question that bring something in
// for the model: a line that is @<path> becomes that file's content (a
// folder: its listing), fenced and named; a line that is $<name> becomes
// that skill's SKILL.md. Everything else, and every line inside a ``` or
// ~~~ fence of the question, is left as typed.
//
// The expansion is what the model reads and what the history keeps; hooks
// read the question before it (the orchestrator expands after
// preGeneration). It reads files only, through internal/regularfile, so
// that a named pipe is refused at once rather than waited for.
package question
