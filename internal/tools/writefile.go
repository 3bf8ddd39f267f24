package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/sandbox"
)

// writeFileTool creates or replaces a file.
type writeFileTool struct{}

func (writeFileTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: "write_file",
		Description: "Write a file with the given content, replacing it whole if it exists; missing parent " +
			"folders are created. The write is atomic: the file is never left half-written. To change part of an " +
			"existing file, prefer edit_file.",
		Parameters: schema([]string{"path", "content"},
			prop{"path", "string", "The file's path, relative to the working directory or absolute."},
			prop{"content", "string", "The file's whole new content."},
		),
	}
}

func (t writeFileTool) Run(ctx context.Context, env Env, input json.RawMessage) Result {
	return runPlanned(ctx, t, env, input)
}

// Target is the file.
func (writeFileTool) Target(env Env, input json.RawMessage) Target {
	in, _ := decodeWrite(env, input)
	return Target{Subject: in.shown, Path: in.abs}
}

// Plan decodes the file and its content, and reads the file as it is: the
// change shown is the change made.
func (writeFileTool) Plan(env Env, input json.RawMessage) (Call, error) {
	in, err := decodeWrite(env, input)
	if err != nil {
		return Call{}, err
	}
	if err := env.Sandbox.CheckWrite(in.abs); err != nil {
		return Call{}, refuse(failure("write_file", "%v", err))
	}
	was := seeFile(in.abs, writeCompareMax)
	c := ran(Target{Subject: in.shown, Path: in.abs}, func(context.Context) Result { return writeWhole(env.Sandbox, in, was) })
	c.Change = was.change(in.abs, in.content)
	return c, nil
}

// writeInput is a write_file call's input, decoded.
type writeInput struct {
	path, abs, shown, content string
}

// decodeWrite is the one reading of a write_file call's input.
func decodeWrite(env Env, input json.RawMessage) (writeInput, error) {
	var in writeInput
	if err := DecodeInput(input, Field{"path", true, &in.path}, Field{"content", true, &in.content}); err != nil {
		return in, refuse(BadInput("write_file", err))
	}
	if strings.TrimSpace(in.path) == "" {
		return in, refuse(failure("write_file", "invalid input: \"path\" is empty"))
	}
	in.abs, in.shown = filePath(env, in.path)
	return in, nil
}

// writeWhole writes the file, if it is still as was saw it, from a thread
// box confines.
func writeWhole(box *sandbox.Policy, in writeInput, was fileSeen) Result {
	if !was.same(in.abs) {
		return changedSince("write_file", in.path)
	}
	verb := "overwrote"
	if was.absent {
		verb = "created"
	}
	err := box.Do(func() error {
		if err := os.MkdirAll(filepath.Dir(in.abs), 0o755); err != nil {
			return err
		}
		return writeAtomic(in.abs, []byte(in.content), 0o644)
	})
	if err != nil {
		return fileError("write_file", in.path, err)
	}
	return Result{Output: fmt.Sprintf("%s %s (%s)", verb, in.path, Plural(len(in.content), "byte"))}
}

// Plural says "1 byte", "2 bytes".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
