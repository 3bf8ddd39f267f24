package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"
)

// The bounds of the numbers a server sends. A number outside its bound is
// not taken: mm goes on as if the server had not sent it, and says so
// once in a line naming the server, the request and the field. The bounds
// are far past any real server's numbers; what they keep out is the
// absurd one (a total_slots of 10^18 made a slice of that length, and a
// token count near 2^63 overflows the sums of a session's usage).
const (
	// maxSlots bounds llama.cpp's total_slots (its --parallel). Each slot
	// holds a KV cache of its own, so a server runs a few, a few dozen at
	// most; a thousand is past any machine's memory. slotFor makes a list
	// of the slots at each level of a chain: this keeps that small.
	maxSlots = 1024
	// maxWindow bounds a context window a server says (n_ctx,
	// context_length, num_ctx, loaded_context_length): 2^26 tokens, six
	// times the largest window any model announces (Llama 4 Scout's
	// 10M), and far enough from 2^63 that the window's sums and ratios
	// cannot overflow.
	maxWindow = 1 << 26
	// maxTokens bounds a token count of a reply's usage (prompt_tokens,
	// completion_tokens, cached_tokens, cache_n): a request and its reply
	// fit in one window.
	maxTokens = maxWindow
	// maxGeneration bounds llama.cpp's predicted_ms, the time a reply took
	// to write: a day, past any model call, which mm's idle timeout ends
	// long before.
	maxGeneration = 24 * time.Hour
)

// badLine is the line for a number the server sent that mm does not take:
// the server, what source is (a request, "GET /props", or a part of the
// reply, "the reply's usage"), the field and its value, what is wrong
// with it, and then, what mm does instead and what the person can do.
func badLine(provider, source, field, problem, then string) string {
	return fmt.Sprintf("%s: %s: %s %s: %s", provider, source, field, problem, then)
}

// outOfRange is the problem of n, outside 0 to hi.
func outOfRange(n any, hi int) string { return fmt.Sprintf("%v is out of range (0 to %d)", n, hi) }

// saidNumbers remembers the fields a model's server sent a bad number
// in, so that a server that sends one in every reply is told of once.
type saidNumbers struct {
	mu   sync.Mutex
	said map[string]bool
}

// first says whether field is told of for the first time.
func (s *saidNumbers) first(field string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.said[field] {
		return false
	}
	if s.said == nil {
		s.said = map[string]bool{}
	}
	s.said[field] = true
	return true
}

// badNumber tells the person, once per field for the model's life, of a
// number the server sent that mm does not take (badLine).
func (m *openAIModel) badNumber(source, field, problem, then string) {
	if m.numbers.first(source + " " + field) {
		m.notify(badLine(m.provider, source, field, problem, then))
	}
}

// inRange is n when it is from 0 to hi; otherwise 0, and badNumber.
func (m *openAIModel) inRange(source, field string, n, hi int, then string) int {
	if n >= 0 && n <= hi {
		return n
	}
	m.badNumber(source, field, outOfRange(n, hi), then)
	return 0
}

// notWhole is the field and problem of a JSON number decoded into an int
// that is not one (1e18, 2.5, or past 2^63): Go's decoder leaves the field
// unset and goes on with the others. ok is false for any other error.
func notWhole(err error) (field, problem string, ok bool) {
	te, isType := errors.AsType[*json.UnmarshalTypeError](err)
	if !isType || te.Type == nil || te.Field == "" || !strings.HasPrefix(te.Value, "number") {
		return "", "", false
	}
	switch te.Type.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint, reflect.Uint64, reflect.Uint32:
		return te.Field, strings.TrimSpace(strings.TrimPrefix(te.Value, "number")) + " is not a whole number mm takes", true
	}
	return "", "", false
}

// windowThen is what mm does with a window it does not take.
const windowThen = "mm does not take it: set contextWindow in the configuration"
