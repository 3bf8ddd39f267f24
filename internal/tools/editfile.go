package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/regularfile"
)

// editMaxBytes is the largest file edit_file changes: it holds the file in
// memory, twice while it replaces, and a model edits source files, which
// are far smaller; larger ones (logs, data) are for bash.
const editMaxBytes = 32 << 20

// editFileTool replaces exact text in a file.
type editFileTool struct{}

func (editFileTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: "edit_file",
		Description: "Replace exact text in an existing file. old_string must match the file exactly, spaces, " +
			"indentation and line breaks included (read the file first), and must occur once: include enough " +
			"surrounding lines to make it unique, or set replace_all to replace every occurrence. To create a " +
			"file, or rewrite one whole, use write_file.",
		Parameters: schema([]string{"path", "old_string", "new_string"},
			prop{"path", "string", "The file's path, relative to the working directory or absolute."},
			prop{"old_string", "string", "The exact text to replace; not empty."},
			prop{"new_string", "string", "The text to put in its place (may be empty, to delete old_string)."},
			prop{"replace_all", "boolean", "Replace every occurrence of old_string (default false: it must occur once)."},
		),
	}
}

func (t editFileTool) Run(ctx context.Context, env Env, input json.RawMessage) Result {
	return runPlanned(ctx, t, env, input)
}

// Target is the file.
func (editFileTool) Target(env Env, input json.RawMessage) Target {
	in, _ := decodeEdit(env, input)
	return Target{Subject: in.shown, Path: in.abs}
}

// editInput is an edit_file call's input, decoded.
type editInput struct {
	path, abs, shown string
	oldS, newS       string
	all              bool
}

// decodeEdit is the one reading of an edit_file call's input.
func decodeEdit(env Env, input json.RawMessage) (editInput, error) {
	var in editInput
	err := DecodeInput(input,
		Field{"path", true, &in.path}, Field{"old_string", true, &in.oldS},
		Field{"new_string", true, &in.newS}, Field{"replace_all", false, &in.all})
	if err != nil {
		return in, refuse(BadInput("edit_file", err))
	}
	switch {
	case strings.TrimSpace(in.path) == "":
		return in, refuse(failure("edit_file", "invalid input: \"path\" is empty"))
	case in.oldS == "":
		return in, refuse(failure("edit_file", "invalid input: \"old_string\" is empty; to create a file or replace it whole, use write_file"))
	case in.oldS == in.newS:
		return in, refuse(failure("edit_file", "invalid input: \"old_string\" and \"new_string\" are the same; there is nothing to change"))
	}
	in.abs, in.shown = filePath(env, in.path)
	return in, nil
}

// Plan decodes the edit and makes it on the file as it is now, in memory:
// the change shown is the change written, and an edit that cannot be made
// is refused before anyone is asked about it.
func (editFileTool) Plan(env Env, input json.RawMessage) (Call, error) {
	in, err := decodeEdit(env, input)
	if err != nil {
		return Call{}, err
	}
	path := in.path
	if err := env.Sandbox.CheckWrite(in.abs); err != nil {
		return Call{}, refuse(failure("edit_file", "%v", err))
	}
	data, err := regularfile.ReadFile(in.abs, editMaxBytes, "edit_file")
	var tl *regularfile.TooLargeError
	if errors.As(err, &tl) {
		return Call{}, refuse(failure("edit_file", "%s is %v; change it with bash (sed, patch)", path, tl))
	}
	if err != nil {
		return Call{}, refuse(fileError("edit_file", path, err))
	}
	oldB, newB := []byte(in.oldS), []byte(in.newS)
	count := bytes.Count(data, oldB)
	if count == 0 && bytes.Contains(data, []byte("\r\n")) && !strings.Contains(in.oldS, "\r\n") && strings.Contains(in.oldS, "\n") {
		// The file ends its lines with CRLF, the model wrote LF.
		oldB = bytes.ReplaceAll(oldB, []byte("\n"), []byte("\r\n"))
		newB = bytes.ReplaceAll(bytes.ReplaceAll(newB, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
		count = bytes.Count(data, oldB)
	}
	switch {
	case count == 0:
		return Call{}, refuse(failure("edit_file", "old_string was not found in %s; it must match the file exactly, "+
			"spaces, indentation and line breaks included (read_file shows the file as it is)", path))
	case count > 1 && !in.all:
		return Call{}, refuse(failure("edit_file", "old_string occurs %d times in %s; include more of the surrounding "+
			"text to make it unique, or set replace_all to true to replace all %d", count, path, count))
	}
	n := 1
	if in.all {
		n = -1
	}
	edited := bytes.Replace(data, oldB, newB, n)
	was := fileSeen{data: data, whole: true}
	c := ran(Target{Subject: in.shown, Path: in.abs}, func(context.Context) Result {
		if !was.same(in.abs) {
			return changedSince("edit_file", path)
		}
		if err := env.Sandbox.Do(func() error { return writeAtomic(in.abs, edited, 0o644) }); err != nil {
			return fileError("edit_file", path, err)
		}
		return Result{Output: fmt.Sprintf("replaced %s in %s", Plural(count, "occurrence"), path)}
	})
	c.Change = &Change{Path: in.abs, Old: string(data), OldSize: -1, New: string(edited)}
	return c, nil
}
