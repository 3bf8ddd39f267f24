// Package archtest holds no code that mm runs: its tests are mm's
// architecture (docs/explanation/architecture.md, pictured in CONTRIBUTING.md)
// written as policy. deps_test.go holds the imports allowed between mm's
// packages, and the rules no import may break: an import the policy does not
// list fails `go test`, naming the edge and the rule, instead of waiting for
// a review to notice it. events_test.go holds that every front end handles
// every event the orchestrator emits. The house's other rules are held the
// same way: a name a reversed decision left behind fails in any tracked file
// (retired_test.go), and so does a markdown link to a file or heading that
// is not there (doclinks_test.go).
package archtest
