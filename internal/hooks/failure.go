package hooks

import (
	"context"
	"fmt"
	"time"
)

// A RunError is why one hook run failed. Its Error is the failure as the
// hooks reference words it ("exit status 2: no", "timed out after 5s",
// "cancelled"), the text of the report line and of a run's Failure; a run
// cut by its chain's cancellation unwraps to context.Canceled, one past
// its timeout to context.DeadlineExceeded, so a caller tells them apart
// with errors.Is rather than by the text.
type RunError struct {
	text  string
	cause error
}

func (e *RunError) Error() string { return e.text }

func (e *RunError) Unwrap() error { return e.cause }

// failed is a run's own failure: err's text, err kept as the cause.
func failed(err error) *RunError { return &RunError{text: err.Error(), cause: err} }

// failedf is a run's own failure with no error under it.
func failedf(format string, args ...any) *RunError {
	return &RunError{text: fmt.Sprintf(format, args...)}
}

// cancelled is the failure of a run its chain's cancellation cut.
func cancelled() *RunError { return &RunError{text: "cancelled", cause: context.Canceled} }

// timedOut is the failure of a run past its timeout.
func timedOut(timeout time.Duration) *RunError {
	return &RunError{text: "timed out after " + timeout.String(), cause: context.DeadlineExceeded}
}

// failedReason is the reason of a stop or a denial that a failing hook with
// onError: fail gives: "hook failed: <failure>".
func failedReason(err *RunError) string { return "hook failed: " + err.Error() }
