package sessions

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// lastUsedDir holds, for each folder, the session a person last used
// there: one small file per folder, named by a hash of the folder, so that
// two mm in two folders never write the same file and a write is a rename.
const lastUsedDir = "last-used"

// lastUsed is one such file.
type lastUsed struct {
	Cwd string `json:"cwd"`
	ID  string `json:"id"`
}

// maxLastUsed bounds what is read of one: a path and an id.
const maxLastUsed = 64 << 10

func lastUsedPath(dir, cwd string) string {
	sum := sha256.Sum256([]byte(cwd))
	return filepath.Join(dir, lastUsedDir, hex.EncodeToString(sum[:12])+".json")
}

// MarkUsed records id as the session a person last used (opened, resumed
// or wrote) in the folder cwd: the one mm --continue goes on with there.
// Editors' and mm serve's sessions are not marked.
func MarkUsed(dir, cwd, id string) error {
	sub := filepath.Join(dir, lastUsedDir)
	if err := ensureDir(sub); err != nil {
		return err
	}
	b, err := json.Marshal(lastUsed{Cwd: cwd, ID: id})
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(sub, ".mark-*")
	if err != nil {
		return fmt.Errorf("marking session %s as this folder's last: %w", id, err)
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), lastUsedPath(dir, cwd))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("marking session %s as this folder's last: %w", id, err)
	}
	return nil
}

// LastUsed is the session a person last used in the folder cwd, as
// MarkUsed recorded it; ok is false when none was, or its file is gone.
// Only regular files are read, a bounded amount.
func LastUsed(dir, cwd string) (id string, ok bool) {
	path := lastUsedPath(dir, cwd)
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxLastUsed))
	var m lastUsed
	if err != nil || json.Unmarshal(b, &m) != nil || m.Cwd != cwd || !validID(m.ID) {
		return "", false
	}
	sfi, err := os.Lstat(filepath.Join(dir, m.ID+".jsonl"))
	if err != nil || !sfi.Mode().IsRegular() || sfi.Size() == 0 {
		return "", false
	}
	return m.ID, true
}

func validID(id string) bool {
	return len(id) == idLen && strings.Trim(id, idAlphabet) == ""
}
