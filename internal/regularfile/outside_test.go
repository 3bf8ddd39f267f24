package regularfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOutside(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "project")
	for _, d := range []string{"project/sub", "secret"} {
		os.MkdirAll(filepath.Join(base, d), 0o755)
	}
	os.WriteFile(filepath.Join(base, "secret", "key"), []byte("k"), 0o600)
	os.WriteFile(filepath.Join(root, "sub", "a.md"), []byte("a"), 0o600)
	os.Symlink("../../secret/key", filepath.Join(root, "sub", "out.md"))
	os.Symlink("a.md", filepath.Join(root, "sub", "in.md"))
	os.Symlink("../secret", filepath.Join(root, "away"))
	real, _ := filepath.EvalSymlinks(filepath.Join(base, "secret"))
	tests := []struct{ path, want string }{
		{"sub/a.md", ""},
		{"sub/in.md", ""},
		{"sub/out.md", filepath.Join(real, "key")},
		{"away", real},
		{"away/key", filepath.Join(real, "key")},
		{"missing.md", ""},
	}
	for _, tt := range tests {
		if got := Outside(root, filepath.Join(root, tt.path)); got != tt.want {
			t.Errorf("Outside(%s) = %q, want %q", tt.path, got, tt.want)
		}
	}
}
