//go:build !linux

package tools

import "os"

// createUnnamed has no unnamed files to make outside Linux: the write goes
// through a named temporary file.
func createUnnamed(dir, base string) (*tempFile, error) { return nil, errNoTmpfile }

// linkUnnamed is never called outside Linux.
func linkUnnamed(*os.File, string, string) (string, error) { return "", errNoTmpfile }
