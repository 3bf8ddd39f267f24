package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// revisionLength is how much of a commit hash the version shows: twelve
// hex digits, as Go's pseudo-versions do, name one commit in any
// repository of mm's size.
const revisionLength = 12

// version is mm's version as the build recorded it, for mm version, the
// banner and the ACP initialize answer.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return buildVersion(info)
}

// buildVersion is the main module's version (a release tag, or the
// pseudo-version go build stamps from the VCS); else the commit it was built
// from, "-dirty" when the tree had changes; else "devel".
func buildVersion(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > revisionLength {
		rev = rev[:revisionLength]
	}
	if dirty {
		rev += "-dirty"
	}
	return "devel " + rev
}

// versionCmd is mm version; mm --version prints the same line.
func versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "print mm's version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, args []string) {
			fmt.Fprintln(cmd.OutOrStdout(), versionLine())
		},
	}
}

// versionLine is what mm version and mm --version print.
func versionLine() string { return "mm " + version() }
