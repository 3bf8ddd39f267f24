package openai

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v5"
)

// Retrying a busy server. HTTP 429 (too many requests) and 503 (llama.cpp
// while it loads a model, a server whose queue is full, a proxy whose
// backend is starting) say "later", so they are retried; any other status,
// and any failure once the reply has begun, is not, since the request may
// have been acted on.
const (
	// retryAttempts bounds the calls made for one model request: with
	// firstRetryWait doubling, the five calls wait 2+4+8+16 = 30 s between
	// them, about what llama.cpp takes to load a mid-size model from disk,
	// and a person waits no longer than that, told of every wait, before
	// the error.
	retryAttempts = 5
	// firstRetryWait is the first back-off; each next one doubles. No
	// jitter: one person's mm talks to its own server, and the waits shown
	// are the waits kept.
	firstRetryWait = 2 * time.Second
	// maxRetryWait caps one wait, the back-off's or the server's own
	// (Retry-After). A server that asks for longer is not called again:
	// the error says how long it asked for, rather than a turn held up in
	// silence, or a call the server said it would refuse.
	maxRetryWait = 30 * time.Second
)

// busyError is a 429 or 503: the server may take the request later.
type busyError struct {
	provider string
	// line is "HTTP 503: <the server's message>".
	line string
	// after is the server's Retry-After; nil when it gave none.
	after *backoff.RetryAfterError
}

func (e *busyError) Error() string { return e.provider + ": " + e.line }

// Unwrap gives the back-off the server's Retry-After.
func (e *busyError) Unwrap() error {
	if e.after == nil {
		return nil
	}
	return e.after
}

// post sends the request until the server takes it, retrying a busy server
// with a back-off (retryAttempts, firstRetryWait, maxRetryWait) and telling
// the person of each wait. It returns a 2xx response whose body is to be
// read under w. Cancelling ctx ends it at once, waiting or not.
func (m *openAIModel) post(ctx context.Context, body []byte, key string) (*http.Response, *idleWatch, error) {
	type taken struct {
		resp *http.Response
		w    *idleWatch
	}
	attempt := 0
	start := time.Now()
	call := func() (taken, error) {
		attempt++
		resp, w, err := m.send(ctx, body, key)
		if err != nil {
			return taken{}, backoff.Permanent(err)
		}
		if resp.StatusCode/100 == 2 {
			return taken{resp, w}, nil
		}
		err = m.refused(ctx, resp, w)
		if _, busy := errors.AsType[*busyError](err); !busy {
			return taken{}, backoff.Permanent(err)
		}
		return taken{}, err
	}
	notify := func(err error, wait time.Duration) {
		line := err.Error()
		if b, ok := errors.AsType[*busyError](err); ok {
			line = b.line
		}
		m.notify(fmt.Sprintf("%s is busy (%s): retrying in %v (attempt %d of %d)",
			m.provider, line, wait, attempt+1, retryAttempts))
	}
	t, err := backoff.Retry(ctx, call,
		backoff.WithBackOff(&backoff.ExponentialBackOff{
			InitialInterval: firstRetryWait,
			Multiplier:      2,
			MaxInterval:     maxRetryWait,
		}),
		backoff.WithMaxTries(retryAttempts),
		backoff.WithMaxElapsedTime(0),
		backoff.WithNotify(notify))
	if err == nil {
		return t.resp, t.w, nil
	}
	if p, ok := errors.AsType[*backoff.PermanentError](err); ok {
		err = p.Err
	}
	if ctx.Err() != nil {
		return nil, nil, fmt.Errorf("%s: %w", m.provider, ctx.Err())
	}
	if _, busy := errors.AsType[*busyError](err); busy {
		return nil, nil, fmt.Errorf("%w (still busy after %d attempts in %v; try again later)",
			err, attempt, time.Since(start).Round(time.Second))
	}
	return nil, nil, err
}

// refused reads a response that is not a success into its error, a
// *busyError when the server may take the request later.
func (m *openAIModel) refused(ctx context.Context, resp *http.Response, w *idleWatch) error {
	defer w.stop()
	defer resp.Body.Close()
	msg, err := io.ReadAll(io.LimitReader(w.body(resp.Body), maxErrorBody))
	if err != nil && (ctx.Err() != nil || w.stalled()) {
		return m.failed(ctx, w, err)
	}
	line := statusLine(resp.StatusCode, resp.Header.Get("Content-Type"), msg)
	if e := contextTooLong(m.provider, line, msg); e != nil && resp.StatusCode/100 == 4 {
		return e
	}
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		return &statusError{provider: m.provider, status: resp.StatusCode, line: line}
	}
	after, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now())
	if ok && after > maxRetryWait {
		return fmt.Errorf("%s: %s (the server asks to retry in %v, longer than mm waits (%v); try again later)",
			m.provider, line, after, maxRetryWait)
	}
	b := &busyError{provider: m.provider, line: line}
	if ok {
		b.after = &backoff.RetryAfterError{Duration: after}
	}
	return b
}

// maxRetryAfter bounds a Retry-After read in seconds, so that the duration
// cannot overflow (136 years: far past maxRetryWait, which refuses it).
const maxRetryAfter = 1 << 32

// retryAfter reads a Retry-After header: a number of seconds or an HTTP
// date (one in the past means now). ok is false when there is none, or it
// cannot be read: the back-off applies then.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseUint(v, 10, 64); err == nil {
		return time.Duration(min(s, maxRetryAfter)) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}
