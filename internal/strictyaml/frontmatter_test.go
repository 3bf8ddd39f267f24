package strictyaml

import (
	"errors"
	"testing"
)

func TestFrontMatter(t *testing.T) {
	for _, tc := range []struct {
		name, text, body, key string
		found                 bool
		err                   string
	}{
		{"front matter and body", "---\nname: x\n---\nthe body\n", "the body\n", "name", true, ""},
		{"carriage returns, a byte order mark", "\ufeff---\r\nname: x\r\n---\r\nbody", "body", "name", true, ""},
		{"nothing after the closing line", "---\nname: x\n---", "", "name", true, ""},
		{"empty front matter", "---\n---\nbody", "body", "", true, ""},
		{"none", "just text\n---\n", "just text\n---\n", "", false, ""},
		{"unclosed", "---\nname: x\n", "", "", true, ErrUnclosed.Error()},
		{"a key twice, at the file's line", "---\nname: x\nname: y\n---\n", "", "", true, `key "name" is given twice (first on line 2)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, body, found, err := FrontMatter([]byte(tc.text))
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("err = %v, want %s", err, tc.err)
				}
				if tc.err == ErrUnclosed.Error() && !errors.Is(err, ErrUnclosed) {
					t.Errorf("err is not ErrUnclosed")
				}
				return
			}
			if err != nil || found != tc.found || string(body) != tc.body {
				t.Fatalf("= %q, %v, %v; want %q, %v", body, found, err, tc.body, tc.found)
			}
			key := ""
			if root != nil && len(root.Content) > 0 {
				key = root.Content[0].Value
			}
			if key != tc.key {
				t.Errorf("first key %q, want %q", key, tc.key)
			}
		})
	}
}
