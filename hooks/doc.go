// Package hooks is mm's hook engine: the hooks: block of a configuration file,
// the runners that execute one hook (a command under sh -c, or a WebAssembly
// module in a sandbox), and the chains that run an event's hooks in order and
// fold their replies into one decision.
//
// The engine knows no turn loop: the orchestrator calls a chain at each event
// and applies the decision it returns.
package hooks
