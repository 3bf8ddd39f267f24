package tools

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// BuiltinNames returns the names of the built-in tools, in the order they
// are offered to a model: bash, read_file, write_file, edit_file.
func BuiltinNames() []string {
	return []string{"bash", "read_file", "write_file", "edit_file"}
}

// Builtins returns the built-in tools, in the order of BuiltinNames.
func Builtins() []Tool {
	return []Tool{bashTool{}, readFileTool{}, writeFileTool{}, editFileTool{}}
}

// Builtin returns the built-in tool called name.
func Builtin(name string) (Tool, bool) {
	for _, t := range Builtins() {
		if t.Spec().Name == name {
			return t, true
		}
	}
	return nil, false
}

// failure is an error result: the tool's name, then what went wrong.
func failure(tool, format string, args ...any) Result {
	return Result{Output: tool + ": " + fmt.Sprintf(format, args...), IsError: true}
}

// BadInput is the result of a call to the tool whose input does not fit
// its schema: "<tool>: invalid input: <err>".
func BadInput(tool string, err error) Result {
	return failure(tool, "invalid input: %v", err)
}

// schema builds a tool's JSON schema from its properties, in order.
func schema(required []string, props ...prop) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i, p := range props {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(p.name)
		desc, _ := json.Marshal(p.desc)
		fmt.Fprintf(&b, `%s:{"type":%q,"description":%s}`, name, p.typ, desc)
	}
	b.WriteString(`},"required":`)
	req, _ := json.Marshal(required)
	b.Write(req)
	b.WriteString(`,"additionalProperties":false}`)
	return json.RawMessage(b.String())
}

// prop is one property of a tool's JSON schema.
type prop struct {
	name, typ, desc string
}

// resolvePath makes a path the model gave absolute: relative to the
// session's working directory, with a leading ~ standing for the home
// directory.
func resolvePath(env Env, p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home := homeDir(env); home != "" {
			p = filepath.Join(home, p[1:])
		}
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	cwd := env.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	return filepath.Join(cwd, p)
}

// filePath is the file a path the model gave names: abs, and shown as a
// person is shown it before approving a call (relative to the working
// directory when inside it, else absolute: "~" and ".." resolved).
func filePath(env Env, p string) (abs, shown string) {
	abs = resolvePath(env, p)
	cwd := env.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	return abs, ShowPath(cwd, abs)
}

func homeDir(env Env) string {
	for i := len(env.Environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env.Environ[i], "HOME="); ok {
			return v
		}
	}
	home, _ := os.UserHomeDir()
	return home
}
