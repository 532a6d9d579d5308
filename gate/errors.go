package gate

import (
	"errors"
	"fmt"

	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/vocab"
)

// Kind classifies an error by what the user must do about it; the command
// maps each kind to its exit code in one place.
type Kind int

const (
	// Internal is anything unclassified (a bug): exit as could-not-run.
	Internal Kind = iota
	// Failed is the gate's verdict, not a malfunction (exit 1).
	Failed
	// BadInput is bad usage, config or input (exit 2).
	BadInput
	// CannotRun means the run could not produce trustworthy results:
	// nothing measured, interrupted, a cap reached, a write failed (exit 3).
	CannotRun
)

// Error is an error with its kind.
type Error struct {
	Kind Kind
	Err  error
	// Hint is one line to say after the error: what to try next.
	Hint string
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// ErrFailed is returned when the gate's verdict is fail.
var ErrFailed = &Error{Kind: Failed, Err: errors.New("gate failed")}

// ErrNoCommonRun is the error (with errors.Is) when baseline and current
// share no (endpoint, scenario).
var ErrNoCommonRun = errors.New("no run in common")

// HintOf returns the hint of err ("" when it has none).
func HintOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Hint
	}
	return ""
}

// KindOf returns the kind of err (Internal when it has none).
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}

// BadInputf is a bad-input error.
func BadInputf(format string, args ...any) error {
	return &Error{Kind: BadInput, Err: fmt.Errorf(format, args...)}
}

// AsBadInput marks err as bad input (nil stays nil).
func AsBadInput(err error) error {
	if err == nil {
		return nil
	}
	return &Error{Kind: BadInput, Err: err}
}

// AsCannotRun marks err as could-not-run (nil stays nil).
func AsCannotRun(err error) error {
	if err == nil {
		return nil
	}
	return &Error{Kind: CannotRun, Err: err}
}

// VerdictError is the error of a command that printed a report: ErrFailed
// when its verdict fails the gate, else nil.
func VerdictError(rep *report.Report) error {
	if rep.Verdict == vocab.Fail {
		return ErrFailed
	}
	return nil
}
