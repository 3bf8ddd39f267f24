// Package builtin holds the models built into mm, which need no server:
// echo, which answers with the question it got, and the scripted model,
// which plays a script file (docs/reference/script-model.md) for examples
// and tests. internal/llm/models makes them for the references echo/<any> and
// script/<file>.
package builtin
