package agentproc

import (
	"strconv"
	"strings"
)

// Remote is an mm on another machine, asked over ssh.
type Remote struct {
	// Host is ssh's destination, [user@]host or a Host of the user's ssh
	// configuration.
	Host string
	// SSHArgs go to ssh before the host.
	SSHArgs []string
	// MM is the remote mm binary; "" for "mm", found in the remote PATH.
	MM string
	// Config is the remote agent's configuration file, on that host.
	Config string
	// Cwd is the remote session's working folder; "" for the folder ssh
	// starts in (the login's home).
	Cwd string
	// Depth, MaxDepth and Chain are the chain the remote mm joins: ssh
	// does not pass the environment (MM_ASKED_DEPTH, MM_ASK_MAX_DEPTH,
	// MM_ASK_CHAIN), so they go on its command line.
	Depth, MaxDepth int
	Chain           string
	// NoSave says the asking session is not saved: ssh does not pass
	// MM_NO_SAVE either, so the remote mm is told --no-save.
	NoSave bool
	// Ceiling is the loosest sandbox the remote mm may run under, as
	// sandbox.Ceiling.Encode writes it (--sandbox-ceiling); "" for none.
	Ceiling string
}

// SSHCommand is the command that starts r: ssh -T [SSHArgs] -- host
// '<mm>' -acp --config '<config>' …. The user's ssh configuration, keys,
// agent and ControlMaster apply as to any ssh they run; -T because ACP is
// a byte stream, not a terminal. The remote command is one string that
// the remote shell splits: every word is quoted for it.
func SSHCommand(r Remote) []string {
	mm := r.MM
	if mm == "" {
		mm = "mm"
	}
	cwd := r.Cwd
	if cwd == "" {
		cwd = "." // where ssh starts the command
	}
	words := []string{
		shellPath(mm), "-acp",
		"--config", shellPath(r.Config),
		"--session-cwd", shellPath(cwd),
		"--asked-depth", strconv.Itoa(r.Depth),
		"--ask-max-depth", strconv.Itoa(r.MaxDepth),
		"--ask-chain", shellQuote(r.Chain),
	}
	if r.NoSave {
		words = append(words, "--no-save")
	}
	if r.Ceiling != "" {
		words = append(words, "--sandbox-ceiling", shellQuote(r.Ceiling))
	}
	argv := append([]string{"ssh", "-T"}, r.SSHArgs...)
	return append(argv, "--", r.Host, strings.Join(words, " "))
}

// shellPath quotes a path for a POSIX shell, leaving a leading ~ or ~/
// outside the quotes so that the remote shell expands it to the home.
func shellPath(p string) string {
	switch {
	case p == "~":
		return p
	case strings.HasPrefix(p, "~/"):
		return "~/" + shellQuote(p[2:])
	}
	return shellQuote(p)
}

// shellQuote is s as one word of a POSIX shell (sh, bash, zsh, fish read
// it alike): as it is when it holds only characters no shell treats
// specially, else in single quotes, a quote inside written '\”.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
