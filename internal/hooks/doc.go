// Package hooks is mm's hook engine: the hooks: block of a configuration file,
// the runners that execute one hook (a command under sh -c, or a WebAssembly
// module through a WasmRunner), and the chains that run an event's hooks in
// order and fold their replies into one decision.
//
// The engine knows no turn loop: the orchestrator calls a chain at each event
// (Engine.PreGeneration, PreToolCall, PostToolCall, PostGeneration, PreAsk,
// PostAsk), applies the decision it returns, and shows the runs an Observer
// is told of (Run.Line, Run.Title, Run.Report). An Engine holds no state
// between chains, so chains may run concurrently.
//
// docs/reference/hooks.md is the user's view of the same contract.
package hooks
