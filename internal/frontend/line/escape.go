package line

import "time"

// escapeWait is how long a read during a turn that ends with ESC waits
// for the rest of a key's sequence (an arrow key's ESC [ A, cut between
// two reads over a slow link) before the ESC counts as the Escape key: as
// the window waits (frontend/tui's escapeWait).
const escapeWait = 25 * time.Millisecond

// escapeKeys takes the Escape keys out of b, keys typed while a turn runs:
// an ESC that begins no key's sequence (ESC [ or ESC O, which stay for the
// next prompt's editor). found says there was one; held says b ended with
// an ESC whose meaning the next bytes decide (it is not in rest).
func escapeKeys(b []byte) (rest []byte, found, held bool) {
	rest = make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != 0x1b {
			rest = append(rest, b[i])
			continue
		}
		switch {
		case i+1 == len(b):
			held = true
		case b[i+1] == '[' || b[i+1] == 'O':
			rest = append(rest, b[i])
		default:
			found = true
		}
	}
	return rest, found, held
}
