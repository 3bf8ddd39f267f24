package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/llm"
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

func (editFileTool) Run(ctx context.Context, env Env, input json.RawMessage) Result {
	var path, oldS, newS string
	var all bool
	err := decodeInput(input,
		field{"path", true, &path}, field{"old_string", true, &oldS},
		field{"new_string", true, &newS}, field{"replace_all", false, &all})
	if err != nil {
		return BadInput("edit_file", err)
	}
	switch {
	case strings.TrimSpace(path) == "":
		return failure("edit_file", "invalid input: \"path\" is empty")
	case oldS == "":
		return failure("edit_file", "invalid input: \"old_string\" is empty; to create a file or replace it whole, use write_file")
	case oldS == newS:
		return failure("edit_file", "invalid input: \"old_string\" and \"new_string\" are the same; there is nothing to change")
	}
	abs := resolvePath(env, path)
	data, err := regularfile.ReadFile(abs, editMaxBytes, "edit_file")
	var tl *regularfile.TooLargeError
	if errors.As(err, &tl) {
		return failure("edit_file", "%s is %v; change it with bash (sed, patch)", path, tl)
	}
	if err != nil {
		return fileError("edit_file", path, err)
	}
	oldB, newB := []byte(oldS), []byte(newS)
	count := bytes.Count(data, oldB)
	if count == 0 && bytes.Contains(data, []byte("\r\n")) && !strings.Contains(oldS, "\r\n") && strings.Contains(oldS, "\n") {
		// The file ends its lines with CRLF, the model wrote LF.
		oldB = bytes.ReplaceAll(oldB, []byte("\n"), []byte("\r\n"))
		newB = bytes.ReplaceAll(bytes.ReplaceAll(newB, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
		count = bytes.Count(data, oldB)
	}
	switch {
	case count == 0:
		return failure("edit_file", "old_string was not found in %s; it must match the file exactly, "+
			"spaces, indentation and line breaks included (read_file shows the file as it is)", path)
	case count > 1 && !all:
		return failure("edit_file", "old_string occurs %d times in %s; include more of the surrounding "+
			"text to make it unique, or set replace_all to true to replace all %d", count, path, count)
	}
	n := 1
	if all {
		n = -1
	}
	data = bytes.Replace(data, oldB, newB, n)
	if err := writeAtomic(abs, data, 0o644); err != nil {
		return fileError("edit_file", path, err)
	}
	return Result{Output: fmt.Sprintf("replaced %s in %s", plural(count, "occurrence"), path)}
}
