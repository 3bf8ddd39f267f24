package cli

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "1acd881abcdef0123456789abcdef0123456789a"
	for _, tc := range []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"release", "v1.2.3", nil, "v1.2.3"},
		{"pseudo-version", "v0.0.0-20261201101600-1acd881abcde+dirty", vcs(rev, "true"), "v0.0.0-20261201101600-1acd881abcde+dirty"},
		{"revision", "(devel)", vcs(rev, "false"), "devel 1acd881abcde"},
		{"dirty revision", "(devel)", vcs(rev, "true"), "devel 1acd881abcde-dirty"},
		{"short revision", "", vcs("abc", "false"), "devel abc"},
		{"nothing", "(devel)", nil, "devel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info := &debug.BuildInfo{Main: debug.Module{Path: "github.com/mm-agent/mm", Version: tc.version}, Settings: tc.settings}
			if got := buildVersion(info); got != tc.want {
				t.Errorf("buildVersion = %q, want %q", got, tc.want)
			}
		})
	}
}
