package leafid

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The servers of one client: asked in the order given, each answer read within a deadline and a
// size limit and checked before it is used; a server that fails is skipped for a back-off, and the
// next one asked.

const (
	// A failover's back-off: 250 ms, doubling per failure in a row, up to 5 s; Retry-After up to 60 s.
	firstBackOff      = 250 * time.Millisecond
	longestBackOff    = 5 * time.Second
	longestRetryAfter = 60 * time.Second
	// The shortest pause between two rounds of servers all down: no busy loop.
	shortestPause = 5 * time.Millisecond
	// Headers are read into memory whole: bounded as the body is.
	maxHeaderBytes = 64 << 10
)

// BadAnswerKey names what BadAnswers counts: the server's URL and the check its answer failed
// (format, count, size, deadline, positive, increasing, behind, app, shard, repeated, pattern).
type BadAnswerKey struct {
	Server string
	Check  string
}

// checkFunc judges a 2xx answer: nil to take it, a *badAnswer to refuse it.
type checkFunc func(header http.Header, body []byte) error

type server struct {
	url       string // without a trailing slash; paths are appended
	client    *http.Client
	transport *http.Transport // its own, so that a failed server's idle connections can be dropped alone
	// Guarded by servers.mu.
	downUntil      time.Time
	failuresInARow int
}

type servers struct {
	list           []*server
	requestTimeout time.Duration
	maxWait        time.Duration
	log            func(string)

	mu         sync.Mutex
	badAnswers map[BadAnswerKey]int
}

func newServers(urls []string, connectTimeout, requestTimeout, maxWait time.Duration, log func(string)) (*servers, error) {
	s := &servers{requestTimeout: requestTimeout, maxWait: maxWait, log: log, badAnswers: map[BadAnswerKey]int{}}
	for _, raw := range urls {
		raw = strings.TrimRight(strings.TrimSpace(raw), "/")
		if raw == "" {
			continue
		}
		parsed, err := url.Parse(raw)
		if err != nil || (parsed.Scheme != "http" && parsed.Scheme != "https") || parsed.Host == "" ||
			parsed.RawQuery != "" || parsed.Fragment != "" || parsed.User != nil {
			return nil, invalidArgument("a server is an http:// or https:// URL with a host, no query: %q", raw)
		}
		transport := &http.Transport{
			Proxy:                  nil, // IDs only from the URLs given, never through a proxy of the environment
			DialContext:            (&net.Dialer{Timeout: connectTimeout, KeepAlive: 30 * time.Second}).DialContext,
			TLSHandshakeTimeout:    connectTimeout,
			MaxIdleConnsPerHost:    16,
			IdleConnTimeout:        90 * time.Second,
			DisableCompression:     true, // the size limit is on the bytes received, not on what they inflate to
			MaxResponseHeaderBytes: maxHeaderBytes,
		}
		s.list = append(s.list, &server{
			url:       raw,
			transport: transport,
			client: &http.Client{
				Transport: transport,
				// A Leaf server sends no redirect: one comes from something in front of it, and the
				// client takes IDs only from the URLs it was given. The 3xx is the server's failure.
				CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
			},
		})
	}
	if len(s.list) == 0 {
		return nil, invalidArgument("at least one server")
	}
	return s, nil
}

// get sends one GET to the first server up, in order, until one gives a 2xx answer that passes
// check. It returns the *RequestError of a 4xx (and of the 503s every server would give alike), an
// *UnavailableError when no server answered well within maxWait, or ctx's error.
func (s *servers) get(ctx context.Context, path, accept string, sizeLimit int64, check checkFunc) error {
	deadline := time.Now().Add(s.maxWait)
	var reasons []string
	for {
		for _, srv := range s.list {
			if err := ctx.Err(); err != nil {
				return err
			}
			if s.isDown(srv) {
				continue
			}
			status, header, body, err := s.send(ctx, srv, path, accept, sizeLimit)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err() // the caller gave up: not the server's failure
				}
				reasons = append(reasons, s.failedWith(srv, err))
				continue
			}
			if status >= 200 && status < 300 {
				if err := check(header, body); err != nil {
					reasons = append(reasons, s.failedWith(srv, err))
					continue
				}
				s.succeeded(srv)
				return nil
			}
			problemType, detail := problem(body)
			if (status >= 400 && status < 500 && status != 408 && status != 429) || isLimitType(problemType) {
				return requestError(status, problemType, detail)
			}
			why := fmt.Sprintf("HTTP %d", status)
			if problemType != "" {
				why += " " + problemType
			}
			if status >= 300 && status < 400 {
				why += fmt.Sprintf(" (a redirect to %q is never followed)", header.Get("Location"))
			}
			s.failed(srv, why, retryAfter(header), "")
			reasons = append(reasons, srv.url+": "+why)
		}
		now := time.Now()
		if !now.Before(deadline) {
			if len(reasons) > len(s.list) {
				reasons = reasons[len(reasons)-len(s.list):]
			}
			return &UnavailableError{Reasons: reasons,
				msg: "leafid: no Leaf server answered well within max wait: " + strings.Join(reasons, "; ")}
		}
		pause := s.soonestUp().Sub(now)
		if pause < shortestPause {
			pause = shortestPause
		}
		if left := deadline.Sub(now); pause > left {
			pause = left
		}
		timer := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
	}
}

// send is one request, the whole answer read within requestTimeout and sizeLimit bytes.
func (s *servers) send(ctx context.Context, srv *server, path, accept string, sizeLimit int64) (int, http.Header, []byte, error) {
	// The deadline covers the body too: a body dripped slowly or never ending is cut off there.
	requestCtx, cancel := context.WithTimeout(ctx, s.requestTimeout)
	defer cancel()
	request, err := http.NewRequestWithContext(requestCtx, http.MethodGet, srv.url+path, nil)
	if err != nil {
		return 0, nil, nil, err
	}
	request.Header.Set("Accept", accept)
	answer, err := srv.client.Do(request)
	if err != nil {
		if requestCtx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
			return 0, nil, nil, bad("deadline", "no whole answer within %v", s.requestTimeout)
		}
		return 0, nil, nil, err
	}
	defer answer.Body.Close()
	// Read into a bounded buffer and cut off beyond it: an endless body costs the limit, not the heap.
	body, err := io.ReadAll(io.LimitReader(answer.Body, sizeLimit+1))
	if err != nil {
		if requestCtx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
			return 0, nil, nil, bad("deadline", "the answer took more than %v", s.requestTimeout)
		}
		return 0, nil, nil, err
	}
	if int64(len(body)) > sizeLimit {
		return 0, nil, nil, bad("size", "the body passed %d bytes", sizeLimit)
	}
	return answer.StatusCode, answer.Header, body, nil
}

func (s *servers) isDown(srv *server) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return srv.downUntil.After(time.Now())
}

func (s *servers) soonestUp() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	soonest := s.list[0].downUntil
	for _, srv := range s.list[1:] {
		if srv.downUntil.Before(soonest) {
			soonest = srv.downUntil
		}
	}
	return soonest
}

func (s *servers) succeeded(srv *server) {
	s.mu.Lock()
	srv.failuresInARow = 0
	s.mu.Unlock()
}

// failedWith marks the server failed for a transport error or a bad answer; it returns the reason.
func (s *servers) failedWith(srv *server, err error) string {
	var answer *badAnswer
	if errors.As(err, &answer) {
		s.failed(srv, "a bad answer, "+answer.Error(), -1, answer.check)
	} else {
		s.failed(srv, err.Error(), -1, "")
	}
	return srv.url + ": " + err.Error()
}

// failed marks the server down for retryAfter (when ≥ 0) or its back-off, and counts a bad answer.
func (s *servers) failed(srv *server, why string, retryAfter time.Duration, check string) {
	s.mu.Lock()
	if check != "" {
		s.badAnswers[BadAnswerKey{srv.url, check}]++
	}
	srv.failuresInARow++
	backOff := retryAfter
	if backOff < 0 {
		backOff = firstBackOff
		for i := 1; i < srv.failuresInARow && backOff < longestBackOff; i++ {
			backOff *= 2
		}
		if backOff > longestBackOff {
			backOff = longestBackOff
		}
	}
	srv.downUntil = time.Now().Add(backOff)
	s.mu.Unlock()
	// Connections kept alive to a failed server are not trusted for the next request.
	srv.transport.CloseIdleConnections()
	if s.log != nil {
		s.log(fmt.Sprintf("Leaf server %s failed (%s); not asked for %d ms, the next server is asked",
			srv.url, why, backOff.Milliseconds()))
	}
}

func (s *servers) badAnswerCounts() map[BadAnswerKey]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	counts := make(map[BadAnswerKey]int, len(s.badAnswers))
	for key, n := range s.badAnswers {
		counts[key] = n
	}
	return counts
}

func (s *servers) close() {
	for _, srv := range s.list {
		srv.transport.CloseIdleConnections()
	}
}

// problem is the type and detail of a problem+json answer, or "" and the body's start.
func problem(body []byte) (string, string) {
	var fields map[string]interface{}
	if err := json.Unmarshal(body, &fields); err == nil && fields != nil {
		return text(fields["type"]), text(fields["detail"])
	}
	if len(body) > 200 {
		body = body[:200]
	}
	return "", strings.ToValidUTF8(string(body), "\uFFFD")
}

func text(value interface{}) string {
	switch v := value.(type) {
	case nil:
		return ""
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

// retryAfter is the Retry-After of an answer in whole seconds, capped at 60 s; -1 without one.
func retryAfter(header http.Header) time.Duration {
	value := strings.TrimSpace(header.Get("Retry-After"))
	if value == "" || strings.Trim(value, "0123456789") != "" {
		return -1
	}
	seconds, err := strconv.ParseInt(value, 10, 64)
	if err != nil || seconds > int64(longestRetryAfter/time.Second) {
		return longestRetryAfter
	}
	return time.Duration(seconds) * time.Second
}
