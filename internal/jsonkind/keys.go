package jsonkind

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// UniqueKeys refuses a key given twice in one object of data, at any
// depth: Go's decoding keeps the last one silently, so what a person reads
// first would not be what is used. The error names the key and where its
// object is, as mm's YAML errors do: `key "action" is given twice`,
// `input.opts: key "x" is given twice`. data is valid JSON (decode it
// first); one pass, linear in its size.
func UniqueKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // numbers are skipped, not parsed
	var stack []frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			continue
		}
		if top != nil && top.keys != nil && top.wantKey {
			// A key: Token gives keys only where an object expects one.
			key := tok.(string)
			if top.keys[key] {
				return fmt.Errorf("%skey %q is given twice", pathOf(stack), key)
			}
			top.keys[key], top.key, top.wantKey = true, key, false
			continue
		}
		// A value: of the object's key, or the array's next item.
		switch {
		case top == nil:
		case top.keys != nil:
			top.wantKey = true
		default:
			top.index++
		}
		if d, ok := tok.(json.Delim); ok {
			f := frame{index: -1}
			if d == '{' {
				f.keys, f.wantKey = map[string]bool{}, true
			}
			stack = append(stack, f)
		}
	}
}

// frame is an object or array UniqueKeys is in: an object's keys so far
// and the last, whether a key comes next; an array's item index.
type frame struct {
	keys    map[string]bool
	key     string
	wantKey bool
	index   int
}

// pathOf is where the innermost object of stack is, as "a.b[2]: ", or ""
// at the top.
func pathOf(stack []frame) string {
	var b []byte
	for _, f := range stack[:len(stack)-1] {
		if f.keys != nil {
			if len(b) > 0 {
				b = append(b, '.')
			}
			b = append(b, f.key...)
		} else {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(f.index), 10)
			b = append(b, ']')
		}
	}
	if len(b) == 0 {
		return ""
	}
	return string(b) + ": "
}
