package sessions

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unicode"
)

// namesDir holds the names people give sessions (/rename), one small file
// per folder beside last-used's, named alike: a name belongs to a folder's
// sessions, as the folder's last session does, so that "fix-build" may
// name one session in each project. A session file is only ever appended
// to, and an older mm refuses a kind of line it does not know: the name
// is kept out of it.
const namesDir = "names"

// namesFile is one folder's names.
type namesFile struct {
	Cwd string `json:"cwd"`
	// Names are the session ids by name.
	Names map[string]string `json:"names"`
}

// maxNamesFile bounds what is read of one: a name is at most
// maxNameChars, and a folder has some hundreds of sessions at most.
const maxNamesFile = 1 << 20

// maxNameChars bounds a session's name: a few words.
const maxNameChars = 64

// CheckName refuses what cannot name a session, in one line saying what
// can: letters, digits, '-', '_' and '.', not starting with '-' (which
// reads as a flag), at most 64 characters.
func CheckName(name string) error {
	ok := name != "" && len([]rune(name)) <= maxNameChars && name[0] != '-'
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' && r != '.' {
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("%q cannot name a session: give letters, digits, '-', '_' and '.', at most %d, not starting with '-' (as fix-build)", name, maxNameChars)
	}
	return nil
}

func namesPath(dir, cwd string) string {
	return filepath.Join(dir, namesDir, filepath.Base(lastUsedPath(dir, cwd)))
}

// readNames reads the names of the folder cwd's sessions; none when it has
// none, or its file is not one mm wrote.
func readNames(dir, cwd string) map[string]string {
	path := namesPath(dir, cwd)
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return map[string]string{}
	}
	f, err := os.Open(path)
	if err != nil {
		return map[string]string{}
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxNamesFile))
	var n namesFile
	if err != nil || json.Unmarshal(b, &n) != nil || n.Cwd != cwd || n.Names == nil {
		return map[string]string{}
	}
	for name, id := range n.Names {
		if !validID(id) || CheckName(name) != nil {
			delete(n.Names, name)
		}
	}
	return n.Names
}

// Name gives the session id of the folder cwd the name name, which it
// loses when it had another; a name another session of the folder holds
// is refused, naming that session. Two mm naming sessions of one folder at
// the same moment may lose one of the names; nothing else is lost.
func Name(dir, cwd, id, name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	names := readNames(dir, cwd)
	if other, ok := names[name]; ok && other != id && exists(dir, other) {
		return fmt.Errorf("%q already names session %s of this folder: give another name", name, other)
	}
	for n, i := range names {
		if i == id || !exists(dir, i) {
			delete(names, n)
		}
	}
	names[name] = id
	return writeNames(dir, cwd, names)
}

// exists says dir holds the session id's file, written.
func exists(dir, id string) bool {
	fi, err := os.Lstat(filepath.Join(dir, id+".jsonl"))
	return err == nil && fi.Mode().IsRegular() && fi.Size() > 0
}

// writeNames replaces the folder cwd's names file, by a rename.
func writeNames(dir, cwd string, names map[string]string) error {
	sub := filepath.Join(dir, namesDir)
	if err := ensureDir(sub); err != nil {
		return err
	}
	b, err := json.Marshal(namesFile{Cwd: cwd, Names: names})
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(sub, ".names-*")
	if err != nil {
		return fmt.Errorf("naming the session: %w", err)
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), namesPath(dir, cwd))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("naming the session: %w", err)
	}
	return nil
}

// Named is the session of the folder cwd that name names; ok is false
// when none does (or its file is gone).
func Named(dir, cwd, name string) (id string, ok bool) {
	id, ok = readNames(dir, cwd)[name]
	if !ok || !exists(dir, id) {
		return "", false
	}
	return id, true
}
