package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/proc"
)

// Limits of the bash tool.
const (
	bashDefaultTimeout = 2 * time.Minute
	bashMaxTimeout     = 10 * time.Minute
	// bashDrainGrace is how long the output pipe may stay open once the
	// command is over and its process group killed: only a process that
	// left the group can hold it that long.
	bashDrainGrace = 2 * time.Second
)

// bashTool runs a shell command.
type bashTool struct{}

func (bashTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: "bash",
		Description: "Run a shell command with bash -c in the session's working directory and return its " +
			"combined stdout and stderr. Each call starts a fresh shell: cd and exported variables do not carry " +
			"over to the next call, so chain commands with && when they depend on each other. stdin is empty, " +
			"so do not run interactive programs. The command is killed after timeout seconds (default 120, at " +
			"most 600), and so is anything it left running in the background. Output over 30000 bytes is cut in " +
			"the middle. A non-zero exit status is reported at the end of the output.",
		Parameters: schema([]string{"command"},
			prop{"command", "string", "The command line, as you would type it in bash."},
			prop{"timeout", "number", "Seconds before the command is killed: default 120, at most 600."},
		),
	}
}

func (t bashTool) Run(ctx context.Context, env Env, input json.RawMessage) Result {
	return runPlanned(ctx, t, env, input)
}

// Target is the command.
func (bashTool) Target(_ Env, input json.RawMessage) Target {
	in, _ := decodeBash(input)
	return Target{Subject: in.command}
}

// Plan decodes the command and its timeout.
func (bashTool) Plan(env Env, input json.RawMessage) (Call, error) {
	in, err := decodeBash(input)
	if err != nil {
		return Call{}, err
	}
	return ran(Target{Subject: in.command}, func(ctx context.Context) Result { return runShell(ctx, env, in.command, in.timeout) }), nil
}

// bashInput is a bash call's input, decoded.
type bashInput struct {
	command string
	timeout time.Duration
}

// decodeBash is the one reading of a bash call's input.
func decodeBash(input json.RawMessage) (bashInput, error) {
	var in bashInput
	var seconds float64
	if err := DecodeInput(input, Field{"command", true, &in.command}, Field{"timeout", false, &seconds}); err != nil {
		return in, refuse(BadInput("bash", err))
	}
	if strings.TrimSpace(in.command) == "" {
		return in, refuse(failure("bash", "invalid input: \"command\" is empty"))
	}
	if seconds < 0 || math.IsNaN(seconds) {
		return in, refuse(failure("bash", "invalid input: \"timeout\" must be a positive number of seconds"))
	}
	in.timeout = bashDefaultTimeout
	switch {
	case seconds > bashMaxTimeout.Seconds():
		in.timeout = bashMaxTimeout
	case seconds > 0:
		in.timeout = time.Duration(seconds * float64(time.Second))
	}
	return in, nil
}

// runShell runs command in its own process group and returns its output,
// capped. However the command ends — exit, timeout, cancellation — its whole
// group is killed before runShell returns, so nothing it started in the
// background outlives it, and no such process can hold the output pipe open.
func runShell(ctx context.Context, env Env, command string, timeout time.Duration) Result {
	shell, err := exec.LookPath("bash")
	if err != nil {
		shell = "/bin/sh"
	}
	if ctx.Err() != nil {
		return Result{Output: "[cancelled; the command was not run]", IsError: true}
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// The command writes straight into a pipe of ours (no copying goroutine
	// in os/exec), so Wait returns as soon as the shell itself exits.
	pr, pw, err := os.Pipe()
	if err != nil {
		return failure("bash", "%v", err)
	}
	cmd := exec.CommandContext(runCtx, shell, "-c", command)
	cmd.Dir = env.Cwd
	cmd.Env = env.Sandbox.Environ(env.Environ)
	cmd.Stdout = pw
	cmd.Stderr = pw
	cmd.Cancel = proc.CancelGroup(cmd)
	cmd.WaitDelay = bashDrainGrace
	release, err := env.Sandbox.Start(cmd)
	if err != nil {
		pr.Close()
		pw.Close()
		return failure("bash", "start %s: %v", shell, err)
	}
	defer release()
	pw.Close()

	out := newCappedBuffer(outputCap)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		io.Copy(out, pr)
	}()

	waitErr := proc.Wait(cmd) // kills what the command left in the background
	select {
	case <-drained:
	case <-time.After(bashDrainGrace):
		// A process that left the group still holds the pipe: stop reading.
		pr.Close()
		<-drained
	}
	pr.Close()

	var b strings.Builder
	b.WriteString(out.String())
	note := func(s string) {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	res := Result{}
	switch {
	case waitErr == nil:
	case ctx.Err() != nil:
		note("[cancelled; the command was killed]")
		res.IsError = true
	case runCtx.Err() != nil:
		note(fmt.Sprintf("[timed out after %v; the command was killed]", timeout))
		res.IsError = true
	default:
		var exitErr *exec.ExitError
		if errors.As(waitErr, &exitErr) {
			note(fmt.Sprintf("[%v]", exitErr))
		} else {
			note(fmt.Sprintf("[%v]", waitErr))
		}
		if why := env.Sandbox.Explain(out.String()); why != "" {
			note(why)
		}
		res.IsError = true
	}
	if b.Len() == 0 {
		b.WriteString("[no output]")
	}
	res.Output = b.String()
	return res
}
