package cli

import "strings"

// singleDashLong are the long flags the reference writes with one dash
// (-tui, -acp, -ask); cobra wants two.
var singleDashLong = map[string]bool{
	"tui": true, "acp": true, "ask": true, "ask-with-context": true,
	"config": true, "model": true, "yolo": true, "print": true, "output-format": true,
	"continue": true, "resume": true, "no-save": true,
}

// normalizeArgs rewrites "-tui" as "--tui" (and "-ask=x" as "--ask=x") for
// the known long flags, up to a "--"; and --resume without an id (the last
// argument, or one before another flag) as --resume-pick.
func normalizeArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") {
			name, _, _ := strings.Cut(a[1:], "=")
			if singleDashLong[name] {
				a = "-" + a
			}
		}
		if a == "--resume" && (i+1 == len(args) || isFlag(args[i+1])) {
			a = "--" + resumePickFlag
		}
		out = append(out, a)
	}
	return out
}

// resumePickFlag is --resume without an id: a list of this folder's
// sessions to pick from (hidden: people write --resume).
const resumePickFlag = "resume-pick"

// isFlag says a is a flag, not the value of the one before it ("-" alone
// is a value: stdin).
func isFlag(a string) bool {
	return len(a) > 1 && a[0] == '-'
}
