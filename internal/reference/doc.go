// Package reference reads the hooks reference (the user's specification,
// testdata/hooks-reference.md, a copy of ../shared/spec/hooks-reference.md)
// into the contracts it states — each table row, each sentence, each list
// item and each example block — so that its test can hold every one of them
// to the tests named in testdata/rows.tsv (docs/explanation/testing.md).
package reference
