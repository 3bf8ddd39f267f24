package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strings"

	"github.com/mm-agent/mm/internal/llm"
	"github.com/mm-agent/mm/internal/regularfile"
)

// Limits of the read_file tool.
const (
	readMaxLines = 2000
	readMaxBytes = 100 * 1024
	// binarySniff is how much of a file is looked at for a NUL byte, the
	// mark of a binary file (as git does).
	binarySniff = 8000
	// countLinesMax is the largest file whose lines are counted to say
	// "of N" when only part of it is shown.
	countLinesMax = 64 << 20
)

// readFileTool reads a text file.
type readFileTool struct{}

func (readFileTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: "read_file",
		Description: "Read a text file and return its content exactly, without line numbers. At most 2000 lines " +
			"and 100 KB are returned per call; a closing note in brackets then says which lines were shown and " +
			"the offset to read on from. Binary files are refused. Use it before edit_file to see the exact text to replace.",
		Parameters: schema([]string{"path"},
			prop{"path", "string", "The file's path, relative to the working directory or absolute."},
			prop{"offset", "number", "The line number to start at, from 1 (default 1)."},
			prop{"limit", "number", "How many lines to read (default and most: 2000)."},
		),
	}
}

func (t readFileTool) Run(ctx context.Context, env Env, input json.RawMessage) Result {
	return runPlanned(ctx, t, env, input)
}

// Target is the file.
func (readFileTool) Target(env Env, input json.RawMessage) Target {
	in, _ := decodeRead(env, input)
	return Target{Subject: in.shown, Path: in.abs}
}

// Plan decodes the file and the lines to read.
func (readFileTool) Plan(env Env, input json.RawMessage) (Call, error) {
	in, err := decodeRead(env, input)
	if err != nil {
		return Call{}, err
	}
	return ran(Target{Subject: in.shown, Path: in.abs}, func(context.Context) Result { return readFile(in) }), nil
}

// readInput is a read_file call's input, decoded.
type readInput struct {
	// path is the file as the model gave it, abs where it is, shown as a
	// person is shown it.
	path, abs, shown string
	first, n         int64
}

// decodeRead is the one reading of a read_file call's input.
func decodeRead(env Env, input json.RawMessage) (readInput, error) {
	var in readInput
	var offset, limit float64
	err := DecodeInput(input,
		Field{"path", true, &in.path}, Field{"offset", false, &offset}, Field{"limit", false, &limit})
	if err != nil {
		return in, refuse(BadInput("read_file", err))
	}
	if strings.TrimSpace(in.path) == "" {
		return in, refuse(failure("read_file", "invalid input: \"path\" is empty"))
	}
	if offset < 0 || limit < 0 || offset != math.Trunc(offset) || limit != math.Trunc(limit) {
		return in, refuse(failure("read_file", "invalid input: \"offset\" and \"limit\" must be whole numbers from 1"))
	}
	in.abs, in.shown = filePath(env, in.path)
	in.first = max(int64(min(offset, 1<<53)), 1)
	in.n = int64(readMaxLines)
	if limit > 0 && limit < readMaxLines {
		in.n = int64(limit)
	}
	return in, nil
}

// readFile reads the lines in asks for.
func readFile(in readInput) Result {
	path, first, n := in.path, in.first, in.n
	// Only so much of the file is read (readMaxBytes, countLinesMax): it
	// needs no limit of size, only to be a regular file.
	f, info, err := regularfile.Open(in.abs)
	var nr *regularfile.NotRegularError
	if errors.As(err, &nr) && nr.Mode.IsDir() {
		return failure("read_file", "%s is a directory, not a file (list it with bash: ls)", path)
	}
	if err != nil {
		return fileError("read_file", path, err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	head, _ := r.Peek(binarySniff)
	if bytes.IndexByte(head, 0) >= 0 {
		return failure("read_file", "%s is a binary file (%d bytes); it is not shown", path, info.Size())
	}
	if len(head) == 0 {
		return Result{Output: fmt.Sprintf("[%s is empty]", path)}
	}
	return readLines(r, path, info.Size(), first, n)
}

// readLines returns lines first to first+n-1 of the file r reads, within
// readMaxBytes, with a closing note when that is not the whole file.
func readLines(r *bufio.Reader, path string, size int64, first, n int64) Result {
	var out strings.Builder
	line := int64(0)    // number of the last line read
	last := first - 1   // number of the last line shown
	var longLine string // a note on a line cut at the byte cap
	more := false       // lines follow the last one shown
	for {
		budget := readMaxBytes - out.Len()
		text, full, err := readLine(r, budget)
		if full == 0 && err != nil {
			if err != io.EOF {
				return fileError("read_file", path, err)
			}
			break
		}
		line++
		if line < first {
			continue
		}
		if line-first >= n || (int64(len(text)) < full && out.Len() > 0) {
			more = true
			break
		}
		out.Write(text)
		last = line
		if int64(len(text)) < full {
			longLine = fmt.Sprintf("line %d is %d bytes long: only its first %d are shown", line, full, len(text))
			more = moreToRead(r)
			break
		}
		if err == io.EOF {
			break
		}
	}
	if last < first {
		return failure("read_file", "offset %d is past the end of %s (%d lines)", first, path, line)
	}
	res := strings.ToValidUTF8(out.String(), "\uFFFD")
	if first == 1 && !more && longLine == "" {
		return Result{Output: res}
	}
	shown := fmt.Sprintf("lines %d-%d", first, last)
	if first == last {
		shown = fmt.Sprintf("line %d", first)
	}
	if more {
		if size <= countLinesMax {
			total := line + countLines(r)
			shown += fmt.Sprintf(" of %d", total)
		}
		shown += fmt.Sprintf(" shown; read on with offset %d", last+1)
	} else {
		shown += fmt.Sprintf(" of %d shown (the end of the file)", last)
	}
	if longLine != "" {
		shown = longLine + "; " + shown
	}
	if !strings.HasSuffix(res, "\n") {
		res += "\n"
	}
	return Result{Output: res + "[" + shown + "]"}
}

// readLine reads one line (with its newline) and returns at most keep bytes
// of it, and its full length.
func readLine(r *bufio.Reader, keep int) (text []byte, full int64, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		full += int64(len(chunk))
		if room := keep - len(text); room > 0 {
			text = append(text, chunk[:min(room, len(chunk))]...)
		}
		if err != bufio.ErrBufferFull {
			return text, full, err
		}
	}
}

// moreToRead reports whether r has anything left.
func moreToRead(r *bufio.Reader) bool {
	_, err := r.Peek(1)
	return err == nil
}

// countLines counts the lines left in r; a last line without a newline
// counts too.
func countLines(r *bufio.Reader) int64 {
	var n int64
	buf := make([]byte, 64<<10)
	var lastByte byte = '\n'
	for {
		k, err := r.Read(buf)
		if k > 0 {
			n += int64(bytes.Count(buf[:k], []byte{'\n'}))
			lastByte = buf[k-1]
		}
		if err != nil {
			break
		}
	}
	if lastByte != '\n' {
		n++
	}
	return n
}

// fileError turns an error on a file into a result naming the path as the
// model gave it.
func fileError(tool, path string, err error) Result {
	var nr *regularfile.NotRegularError
	var tl *regularfile.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return failure(tool, "no such file: %s", path)
	case errors.Is(err, fs.ErrPermission):
		return failure(tool, "permission denied: %s", path)
	case errors.As(err, &nr):
		return failure(tool, "%s is %v", path, nr)
	case errors.As(err, &tl):
		return failure(tool, "%s is %v", path, tl)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return failure(tool, "%s: %v", path, pe.Err)
	}
	return failure(tool, "%s: %v", path, err)
}
