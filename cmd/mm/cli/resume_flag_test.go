package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestResumeEmptyIsRefused: --resume with an empty id is refused as a
// blank one is, in every mode, and starts no session (issue 37: it started
// a new one without a word).
func TestResumeEmptyIsRefused(t *testing.T) {
	const noID = "mm: no session id given: mm sessions lists them\n"
	tests := []struct {
		name   string
		args   []string
		in     string
		code   int
		stderr string
	}{
		{"-p, a blank id", []string{"--resume", " ", "-p", "hi"}, "", 1, noID},
		{"-p, an empty id", []string{"--resume", "", "-p", "hi"}, "", 1, noID},
		{"-p, --resume=", []string{"--resume=", "-p", "hi"}, "", 1, noID},
		{"-p, one dash", []string{"-resume", "", "-p", "hi"}, "", 1, noID},
		{"the line mode", []string{"--resume", ""}, "hi\n", 1, noID},
		{"-tui", []string{"-tui", "--resume", ""}, "", 1, noID},
		{"--ask", []string{"--resume", "", "--ask", "expert", "hi"}, "", 1, noID},
		{"with --continue", []string{"--continue", "--resume", "", "-p", "hi"}, "", 2, "mm: give one of --continue and --resume\n"},
		{"with -acp", []string{"-acp", "--resume", ""}, "", 2, "mm: " + errResumeACP.Error() + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, state := t.TempDir(), t.TempDir()
			writeFiles(t, dir, echoConfig)
			s, out, errOut := testStreams(dir, tc.in, map[string]string{"PATH": os.Getenv("PATH"), "XDG_STATE_HOME": state})
			code := runWith(context.Background(), nil, s, tc.args)
			if code != tc.code || out.Len() != 0 || errOut.String() != tc.stderr {
				t.Errorf("mm %q: exit %d, stdout %q, stderr %q; want exit %d, stderr %q", tc.args, code, out, errOut, tc.code, tc.stderr)
			}
			if saved, _ := filepath.Glob(filepath.Join(state, "mm", "sessions", "*")); len(saved) != 0 {
				t.Errorf("mm %q saved %q, want no session", tc.args, saved)
			}
		})
	}
}
