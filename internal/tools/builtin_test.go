package tools

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestBuiltins(t *testing.T) {
	want := []string{"bash", "read_file", "write_file", "edit_file"}
	if got := BuiltinNames(); !slices.Equal(got, want) {
		t.Errorf("BuiltinNames() = %q, want %q", got, want)
	}
	var names []string
	for _, tool := range Builtins() {
		spec := tool.Spec()
		names = append(names, spec.Name)
		if spec.Description == "" {
			t.Errorf("%s has no description", spec.Name)
		}
		var schema map[string]any
		if err := json.Unmarshal(spec.Parameters, &schema); err != nil || schema["type"] != "object" {
			t.Errorf("%s: parameters %s are not an object schema (%v)", spec.Name, spec.Parameters, err)
		}
	}
	if !slices.Equal(names, want) {
		t.Errorf("Builtins() names = %q, want %q", names, want)
	}
	for _, name := range want {
		if tool, ok := Builtin(name); !ok || tool.Spec().Name != name {
			t.Errorf("Builtin(%q) = %v, %v", name, tool, ok)
		}
	}
	if tool, ok := Builtin("ask_agent"); ok {
		t.Errorf("Builtin(%q) = %v, want none", "ask_agent", tool)
	}
}

// TestSubjectWhole: the subject of a title is the value as the
// model wrote it, line breaks kept and uncut; only its ends are trimmed.
func TestSubjectWhole(t *testing.T) {
	long := strings.Repeat("é", 70)
	tests := []struct{ name, input, want string }{
		{"line breaks kept", `{"command": "cat <<EOF\n hi\nEOF"}`, "cat <<EOF\n hi\nEOF"},
		{"uncut", `{"path": "` + long + `"}`, long},
		{"ends trimmed", `{"command": "  ls \n"}`, "ls"},
		{"command before path", `{"path": "p", "command": "c"}`, "c"},
		{"none of the keys", `{"question": "why?"}`, ""},
		{"invalid JSON", `{"command": `, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := subjectWhole(json.RawMessage(tt.input)); got != tt.want {
				t.Errorf("subjectWhole(%s) = %q, want %q", tt.input, got, tt.want)
			}
		})
	}
}

func TestSubjectLine(t *testing.T) {
	long := "echo 0123456789012345678901234567890123456789012345678901234567890123456789"
	tests := []struct {
		name, input, want string
	}{
		{"command", `{"command": "ls -la"}`, "ls -la"},
		{"path", `{"path": "src/main.go", "content": "x"}`, "src/main.go"},
		{"file_path", `{"file_path": "/tmp/x"}`, "/tmp/x"},
		{"url", `{"url": "https://example.com/"}`, "https://example.com/"},
		{"agent", `{"agent": "expert", "question": "why?"}`, "expert"},
		{"command before path", `{"path": "p", "command": "c"}`, "c"},
		{"empty command skipped", `{"command": "", "path": "p"}`, "p"},
		{"non-string skipped", `{"command": 5, "path": "p"}`, "p"},
		{"line breaks made spaces", `{"command": "cat <<EOF\n hi\nEOF"}`, "cat <<EOF hi EOF"},
		{"60 characters kept", `{"command": "` + long[:60] + `"}`, long[:60]},
		{"cut at 60 characters", `{"command": "` + long + `"}`, long[:59] + "…"},
		{"characters, not bytes", `{"path": "` + strings.Repeat("é", 70) + `"}`, strings.Repeat("é", 59) + "…"},
		{"none of the keys", `{"question": "why?"}`, ""},
		{"invalid JSON", `{"command": `, ""},
		{"empty input", ``, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SubjectLine(json.RawMessage(tt.input)); got != tt.want {
				t.Errorf("SubjectLine(%s) = %q, want %q", tt.input, got, tt.want)
			}
		})
	}
}
