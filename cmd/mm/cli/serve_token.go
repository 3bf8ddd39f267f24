package cli

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/internal/sessions"
)

// serveTokenFile is mm serve's token, in mm's state folder (beside the
// sessions folder): generated at the first start, read at each one after.
const serveTokenFile = "serve-token"

// serveTokenBytes is the token's randomness: 32 bytes, as a bearer token
// of any service.
const serveTokenBytes = 32

// serveTokenPath is where mm serve keeps its token; "" when there is no
// state folder (no HOME, no XDG_STATE_HOME).
func serveTokenPath(getenv func(string) string) string {
	dir := sessions.Dir(getenv)
	if dir == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(dir), serveTokenFile)
}

// serveToken is the token in path, generated into it (mode 0600) when the
// file does not exist yet. A file another user could read is refused: a
// token others know guards nothing.
func serveToken(path string) (token string, err error) {
	data, err := regularfile.ReadFile(path, 4<<10, "a token file")
	switch {
	case err == nil:
		fi, err := os.Stat(path)
		if err != nil {
			return "", err
		}
		if fi.Mode().Perm()&0o077 != 0 {
			return "", fmt.Errorf("%s: others may read it (mode %04o): make it private (chmod 600) or remove it for a new one", path, fi.Mode().Perm())
		}
		token = strings.TrimSpace(string(data))
		if token == "" {
			return "", fmt.Errorf("%s is empty: remove it, and mm serve writes a new token there", path)
		}
		return token, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", err
	}
	b := make([]byte, serveTokenBytes)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	token = base64.RawURLEncoding.EncodeToString(b)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("making %s: %w", filepath.Dir(path), err)
	}
	// Written aside, then linked in place: two mm serve starting at once
	// share one token, and neither reads a file half written.
	tmp, err := os.CreateTemp(filepath.Dir(path), serveTokenFile+".*")
	if err != nil {
		return "", fmt.Errorf("writing the token: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(token + "\n"); err != nil {
		tmp.Close()
		return "", fmt.Errorf("writing the token to %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("writing the token to %s: %w", tmp.Name(), err)
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, fs.ErrExist) {
		return serveToken(path)
	} else if err != nil {
		return "", fmt.Errorf("writing the token to %s: %w", path, err)
	}
	return token, nil
}
