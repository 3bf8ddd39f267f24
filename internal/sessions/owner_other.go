//go:build !unix

package sessions

import "io/fs"

// ownedByMe has no owner to compare where files have no uid.
func ownedByMe(string, fs.FileInfo) error { return nil }
