package leafid

import (
	"errors"
	"fmt"
)

// The kinds of failure, for errors.Is. A server's refusal is a *RequestError (errors.As gives its
// status, problem type and detail) that matches one of the first three; no server answering well
// is an *UnavailableError that matches ErrUnavailable.
var (
	// ErrUnknownKey: a 404, an unknown tag, app, shard or format, or the mode is off on the server.
	ErrUnknownKey = errors.New("leafid: unknown key")
	// ErrInvalidInput: a 400, the tag, key, count or gate pass is not one the server takes.
	ErrInvalidInput = errors.New("leafid: invalid input")
	// ErrLimitReached: tag-exhausted or app-limit-reached; every server would say the same.
	ErrLimitReached = errors.New("leafid: limit reached")
	// ErrUnavailable: no server gave a good answer within the max wait: every one was down, slow or
	// answered badly.
	ErrUnavailable = errors.New("leafid: no server available")
	// ErrInvalidArgument: a tag, key, app id or count refused by the client before any request.
	ErrInvalidArgument = errors.New("leafid: invalid argument")
	// ErrClosed: the client was closed, so no batch is fetched any more.
	ErrClosed = errors.New("leafid: client closed")
)

// The problem types that mean "every server would say the same": not retried on another server,
// although the status is a 503.
const (
	problemTagExhausted    = "urn:leaf:problem:tag-exhausted"
	problemAppLimitReached = "urn:leaf:problem:app-limit-reached"
	problemInvalidCount    = "urn:leaf:problem:invalid-count"
)

func isLimitType(problemType string) bool {
	return problemType == problemTagExhausted || problemType == problemAppLimitReached
}

// RequestError is a server's refusal that is the request's fault (a 4xx other than 408 and 429,
// or a limit reached), the same on every server, so not retried.
type RequestError struct {
	Status int    // the HTTP status
	Type   string // the problem type, e.g. urn:leaf:problem:unknown-tag ("" when the body was not problem+json)
	Detail string // the server's words
	kind   error  // ErrUnknownKey, ErrInvalidInput, ErrLimitReached or nil
}

func (e *RequestError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Status, e.Type, e.Detail)
}

// Is makes errors.Is(err, ErrUnknownKey) and the like true for the matching refusals.
func (e *RequestError) Is(target error) bool {
	return e.kind != nil && target == e.kind
}

// requestError types a refusal as the Python and Java clients do: the limit types first (they
// come as 503), then by status.
func requestError(status int, problemType, detail string) *RequestError {
	e := &RequestError{Status: status, Type: problemType, Detail: detail}
	switch {
	case isLimitType(problemType):
		e.kind = ErrLimitReached
	case status == 404:
		e.kind = ErrUnknownKey
	case status == 400:
		e.kind = ErrInvalidInput
	}
	return e
}

// UnavailableError says no server gave a good answer within the max wait, with the last reasons.
type UnavailableError struct {
	Reasons []string // "server: why" of the last round of servers asked
	msg     string
}

func (e *UnavailableError) Error() string { return e.msg }

// Is makes errors.Is(err, ErrUnavailable) true.
func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

func invalidArgument(format string, args ...interface{}) error {
	return fmt.Errorf("%w: %s", ErrInvalidArgument, fmt.Sprintf(format, args...))
}
