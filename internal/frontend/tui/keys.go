package tui

import (
	"strings"
	"unicode/utf8"
)

// keyKind names a key the window acts on.
type keyKind int

const (
	keyRune keyKind = iota // a character to insert (key.r)
	keyEnter
	keyBackspace
	keyDelete
	keyLeft
	keyRight
	keyUp
	keyDown
	keyHome
	keyEnd
	keyPgUp
	keyPgDn
	keyEscape
	keyCtrlC
	keyCtrlD
	keyCtrlK // delete to the end of the line
	keyCtrlL // redraw
	keyCtrlU // delete to the start of the line
	keyCtrlW // delete the word before the cursor
	keyTab   // complete an @path or $name line
)

// key is one key press.
type key struct {
	kind keyKind
	r    rune
}

// decoder turns the bytes a terminal sends in raw mode into keys. A
// sequence cut between two reads waits for the rest; an escape byte that
// ends a read is the Escape key (the reader waits a moment for the rest of
// a sequence before it hands a lone escape over).
type decoder struct {
	pending []byte
	// pasting is set between the bracketed-paste markers: line breaks in
	// pasted text become spaces instead of sending the line.
	pasting bool
	// skipping is set while the rest of an over-long sequence is dropped.
	skipping bool
}

func (d *decoder) feed(b []byte) []key {
	buf := append(d.pending, b...)
	d.pending = nil
	var keys []key
	for len(buf) > 0 {
		k, n, ok := d.next(buf)
		if n == 0 {
			// Incomplete: keep it for the next read.
			d.pending = append([]byte(nil), buf...)
			break
		}
		buf = buf[n:]
		if ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// next decodes the key at the start of b: n is the number of bytes used (0
// when b holds only the start of a sequence), ok false for bytes that mean
// nothing here.
func (d *decoder) next(b []byte) (k key, n int, ok bool) {
	c := b[0]
	if d.skipping {
		// Parameter bytes, then the final one, which ends the skipping.
		d.skipping = c >= 0x20 && c <= 0x3f
		return key{}, 1, false
	}
	if d.pasting {
		switch c {
		case '\r':
			if len(b) > 1 && b[1] == '\n' {
				return key{kind: keyRune, r: ' '}, 2, true
			}
			return key{kind: keyRune, r: ' '}, 1, true
		case '\n', '\t':
			return key{kind: keyRune, r: ' '}, 1, true
		}
	}
	switch c {
	case 0x1b:
		return d.escape(b)
	case '\r', '\n':
		return key{kind: keyEnter}, 1, true
	case 0x7f, 0x08:
		return key{kind: keyBackspace}, 1, true
	case 0x01:
		return key{kind: keyHome}, 1, true
	case 0x05:
		return key{kind: keyEnd}, 1, true
	case 0x02:
		return key{kind: keyLeft}, 1, true
	case 0x06:
		return key{kind: keyRight}, 1, true
	case 0x10:
		return key{kind: keyUp}, 1, true
	case 0x0e:
		return key{kind: keyDown}, 1, true
	case 0x03:
		return key{kind: keyCtrlC}, 1, true
	case 0x04:
		return key{kind: keyCtrlD}, 1, true
	case 0x0b:
		return key{kind: keyCtrlK}, 1, true
	case 0x0c:
		return key{kind: keyCtrlL}, 1, true
	case 0x15:
		return key{kind: keyCtrlU}, 1, true
	case 0x17:
		return key{kind: keyCtrlW}, 1, true
	case '\t':
		return key{kind: keyTab}, 1, true
	}
	if c < 0x20 {
		return key{}, 1, false
	}
	if !utf8.FullRune(b) {
		return key{}, 0, false
	}
	r, size := utf8.DecodeRune(b)
	if r == utf8.RuneError || (r >= 0x80 && r < 0xA0) {
		return key{}, size, false
	}
	return key{kind: keyRune, r: r}, size, true
}

// maxSequence bounds an unfinished CSI sequence the decoder waits for the
// end of: the keys it knows take under ten bytes; 64 leaves room for any
// parameters a terminal adds.
const maxSequence = 64

// escape decodes a sequence that starts with ESC: CSI (ESC [) and SS3
// (ESC O) keys; ESC alone, or followed by anything else, is Escape.
func (d *decoder) escape(b []byte) (k key, n int, ok bool) {
	if len(b) == 1 {
		return key{kind: keyEscape}, 1, true
	}
	switch b[1] {
	case 'O':
		if len(b) < 3 {
			return key{}, 0, false
		}
		return d.csi("", b[2], 3)
	case '[':
		// Parameters and intermediates, then one final byte.
		i := 2
		for i < len(b) && b[i] >= 0x20 && b[i] <= 0x3f {
			i++
		}
		if i == len(b) {
			if i > maxSequence {
				// No key is this long: the sequence is dropped, up to its
				// final byte, rather than kept for ever.
				d.skipping = true
				return key{}, i, false
			}
			return key{}, 0, false
		}
		if b[i] < 0x40 || b[i] > 0x7e {
			// Not a sequence after all: drop the ESC [.
			return key{}, 2, false
		}
		return d.csi(string(b[2:i]), b[i], i+1)
	}
	return key{kind: keyEscape}, 1, true
}

// csi maps a CSI sequence (or an SS3 one, without parameters); modifiers
// (";5" for Ctrl) are ignored.
func (d *decoder) csi(params string, final byte, n int) (key, int, bool) {
	params, _, _ = strings.Cut(params, ";")
	switch final {
	case 'A':
		return key{kind: keyUp}, n, true
	case 'B':
		return key{kind: keyDown}, n, true
	case 'C':
		return key{kind: keyRight}, n, true
	case 'D':
		return key{kind: keyLeft}, n, true
	case 'H':
		return key{kind: keyHome}, n, true
	case 'F':
		return key{kind: keyEnd}, n, true
	case '~':
		switch params {
		case "1", "7":
			return key{kind: keyHome}, n, true
		case "4", "8":
			return key{kind: keyEnd}, n, true
		case "3":
			return key{kind: keyDelete}, n, true
		case "5":
			return key{kind: keyPgUp}, n, true
		case "6":
			return key{kind: keyPgDn}, n, true
		case "200":
			d.pasting = true
		case "201":
			d.pasting = false
		}
	}
	return key{}, n, false
}
