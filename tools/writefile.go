package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mm-agent/mm/llm"
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

func (writeFileTool) Run(ctx context.Context, env Env, input json.RawMessage) Result {
	var path, content string
	if err := decodeInput(input, field{"path", true, &path}, field{"content", true, &content}); err != nil {
		return BadInput("write_file", err)
	}
	if strings.TrimSpace(path) == "" {
		return failure("write_file", "invalid input: \"path\" is empty")
	}
	abs := resolvePath(env, path)
	verb := "overwrote"
	if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
		verb = "created"
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return fileError("write_file", path, err)
	}
	if err := writeAtomic(abs, []byte(content), 0o644); err != nil {
		return fileError("write_file", path, err)
	}
	return Result{Output: fmt.Sprintf("%s %s (%s)", verb, path, plural(len(content), "byte"))}
}

// plural says "1 byte", "2 bytes".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
