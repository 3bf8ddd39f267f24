// Package permissions holds the rules a person writes once in an agent's
// configuration (permissions: allow and deny): their grammar, and whether
// a tool call matches them. A bash command is read as bash reads it and
// cut at its control operators, so that no rule is slipped past by
// chaining: an allow covers a command when it covers every command in it,
// a deny refuses it when it names any one of them.
package permissions
