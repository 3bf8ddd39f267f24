package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/mm-agent/mm/internal/question"
	"github.com/mm-agent/mm/internal/tools"
	"github.com/mm-agent/mm/internal/tracing"
)

// ShellCommand is the reply's Command of what the person ran with
// "!command": its output.
const ShellCommand = "!"

// Shell runs command for the person — "!ls" typed in the line mode or the
// window — as the bash tool runs the model's: in the session's working
// directory and sandbox, with its timeout and its bound on the output. A
// deny rule of the configuration refuses it, as it refuses the model's
// call; no consent is asked (the person typed it), and no hook runs
// (hooks see the model's tool calls). The output is shown, as a
// CommandReply, and joins the next question: the model reads what the
// person saw, as in Claude Code and Codex. It runs between turns; ctx's
// end kills the command.
func (s *Session) Shell(ctx context.Context, command string) error {
	command = strings.TrimSpace(command)
	if command == "" {
		return errors.New("!<command>: give a command to run, as in !git status")
	}
	if refusal, _ := s.checkRules(ruleCall{Tool: "bash", Subject: command}); refusal != "" {
		return errors.New("!" + command + ": " + strings.TrimSuffix(strings.TrimPrefix(refusal, "["), "]"))
	}
	bash, _ := tools.Builtin("bash")
	input, err := json.Marshal(map[string]string{"command": command})
	if err != nil {
		return err
	}
	env := tools.Env{Cwd: s.cwd, Environ: tracing.Environ(ctx, s.environ), Sandbox: s.sandbox}
	planned, err := tools.PlanCall(bash, env, input)
	if err != nil {
		return err
	}
	out := planned.Run(ctx).Output
	s.sink.Emit(CommandReply{Command: ShellCommand, Text: strings.TrimSuffix(out, "\n")})
	s.mu.Lock()
	s.shellRuns = append(s.shellRuns, "[the person ran in the shell: "+command+"]\n"+question.Fence(out))
	s.mu.Unlock()
	return ctx.Err()
}

// takeShellRuns is what the person ran with "!" since the last question,
// for the next one to begin with ("" when nothing), and forgets it.
func (s *Session) takeShellRuns() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	runs := strings.Join(s.shellRuns, "\n\n")
	s.shellRuns = nil
	return runs
}
