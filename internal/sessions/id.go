package sessions

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// idAlphabet is Crockford's base32, lower case: no i, l, o or u to misread.
const idAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// idTimeChars encode the milliseconds since 1970 (45 bits: until the
// year 3084); idRandChars tell apart the sessions started in one
// millisecond.
const (
	idTimeChars = 9
	idRandChars = 3
	idLen       = idTimeChars + idRandChars
)

// newID is a session id: the start's millisecond then random characters,
// so that ids sort by time, as file names do, and stay short.
func newID(now time.Time) string {
	var b [idLen]byte
	ms := uint64(now.UnixMilli())
	for i := idTimeChars - 1; i >= 0; i-- {
		b[i] = idAlphabet[ms%32]
		ms /= 32
	}
	// math/rand's generator, seeded by the runtime: an id need not be
	// secret, and crypto/rand's first read would set up its generator at
	// every start of mm.
	for i := range idRandChars {
		b[idTimeChars+i] = idAlphabet[rand.IntN(32)]
	}
	return string(b[:])
}

// checkPrefix refuses what cannot begin an id, before any file is looked
// at: a path, a space, an upper-case letter from a copy.
func checkPrefix(p string) error {
	if p == "" {
		return fmt.Errorf("no session id given: mm sessions lists them")
	}
	if len(p) > idLen || strings.Trim(p, idAlphabet) != "" {
		return fmt.Errorf("%q is not a session id (ids are %d characters of 0-9 and a-z, like 1m8rp0pc0qje): mm sessions lists them", p, idLen)
	}
	return nil
}
