//go:build !unix

package tools

// childMain has no child modes where the tests that need them do not run.
func childMain(string) int { return 2 }
