package frontend

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// maxCompletions bounds the names a completion offers: a folder of
// thousands of files would otherwise fill the screen.
const maxCompletions = 200

// Complete offers what may follow the text before the cursor when it ends
// in an @path — a line that starts with one, or a word of a sentence that
// does ("explain @src/ma") — or is the start of a $name line: the names
// of the folder's entries that start with what was typed of the last part
// of the path (a folder's with a "/" after it), or the skills whose name
// starts with what was typed. It returns each candidate's rest (what the
// cursor would insert) and how much of the text was matched; nothing for
// any other text. cwd is the session's working directory, where paths
// start.
func Complete(before, cwd string, skills []string) (rests []string, matched string) {
	if strings.HasPrefix(before, "$") && !strings.ContainsAny(before, " \t\n") {
		typed := before[1:]
		for _, name := range skills {
			if strings.HasPrefix(name, typed) && name != typed {
				rests = append(rests, name[len(typed):])
			}
		}
		sort.Strings(rests)
		return rests, typed
	}
	word := before[strings.LastIndexAny(before, " \t\n")+1:]
	// After an opening bracket or quote, as an @path in a sentence may be.
	word = strings.TrimLeft(word, `([{"'`)
	if strings.HasPrefix(word, "@") && !strings.Contains(word, `"`) {
		return completePath(word[1:], cwd)
	}
	return nil, ""
}

func completePath(typed, cwd string) ([]string, string) {
	dir, base := filepath.Split(typed)
	abs := dir
	switch {
	case strings.HasPrefix(dir, "~/"):
		if home, err := os.UserHomeDir(); err == nil {
			abs = filepath.Join(home, dir[2:])
		}
	case !filepath.IsAbs(dir):
		abs = filepath.Join(cwd, dir)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, base
	}
	var rests []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		rest := name[len(base):]
		if e.IsDir() {
			rest += "/"
		}
		if rest == "" {
			continue
		}
		rests = append(rests, rest)
		if len(rests) == maxCompletions {
			break
		}
	}
	return rests, base
}

// CommonPrefix is the longest text every one of rests starts with.
func CommonPrefix(rests []string) string {
	if len(rests) == 0 {
		return ""
	}
	p := rests[0]
	for _, r := range rests[1:] {
		for !strings.HasPrefix(r, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}
