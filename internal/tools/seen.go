package tools

import (
	"bytes"
	"errors"
	"io/fs"
	"os"

	"github.com/mm-agent/mm/internal/regularfile"
)

// writeCompareMax is the largest file, in bytes, whose content write_file
// reads to show what it replaces: a diff of more is past what a person
// reads before approving. A larger file is shown by its size and compared
// by its size and time.
const writeCompareMax = 1 << 20

// fileSeen is a file as a call's plan saw it, to show the change the call
// makes and to tell, when the call runs, whether the file changed since.
type fileSeen struct {
	absent bool
	// data is the content, when whole says it was read.
	data  []byte
	whole bool
	// info is the file's, when it exists.
	info fs.FileInfo
	// unknown says the file could not be looked at (not a regular file,
	// not readable): nothing is shown or compared, and the write says why
	// it fails, if it does.
	unknown bool
}

// seeFile looks at the file at abs, reading it when it holds at most limit
// bytes.
func seeFile(abs string, limit int64) fileSeen {
	info, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return fileSeen{absent: true}
	}
	if err != nil || !info.Mode().IsRegular() {
		return fileSeen{unknown: true}
	}
	if info.Size() > limit {
		return fileSeen{info: info}
	}
	data, err := regularfile.ReadFile(abs, limit, "")
	if err != nil {
		return fileSeen{unknown: true}
	}
	return fileSeen{data: data, whole: true, info: info}
}

// same reports whether the file at abs is still as it was seen: its content
// when it was read whole, else its size, time and identity.
func (s fileSeen) same(abs string) bool {
	if s.unknown {
		return true
	}
	info, err := os.Stat(abs)
	if s.absent || err != nil {
		return s.absent && errors.Is(err, fs.ErrNotExist)
	}
	if s.whole {
		data, err := regularfile.ReadFile(abs, int64(len(s.data)), "")
		return err == nil && bytes.Equal(data, s.data)
	}
	return os.SameFile(info, s.info) && info.Size() == s.info.Size() && info.ModTime().Equal(s.info.ModTime())
}

// change is the change writing content to abs makes to the file as seen.
func (s fileSeen) change(abs, content string) *Change {
	switch {
	case s.unknown:
		return nil
	case s.absent:
		return &Change{Path: abs, Created: true, OldSize: -1, New: content}
	case s.whole:
		return &Change{Path: abs, Old: string(s.data), OldSize: -1, New: content}
	}
	return &Change{Path: abs, OldSize: s.info.Size(), New: content}
}

// changedSince is the failure of a call whose file changed between the
// consent question that showed its change and the write.
func changedSince(tool, path string) Result {
	return failure(tool, "%s changed after its change was shown for approval; nothing was written: read it again and redo the change", path)
}
