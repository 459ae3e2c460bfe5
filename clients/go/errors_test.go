package leafid

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

func TestRefusalsAreTypedAndNotRetried(t *testing.T) {
	for _, c := range []struct {
		status      int
		problemType string
		want        error
	}{
		{404, "urn:leaf:problem:unknown-tag", ErrUnknownKey},
		{404, "urn:leaf:problem:mode-disabled", ErrUnknownKey},
		{400, "urn:leaf:problem:invalid-key", ErrInvalidInput},
		{503, "urn:leaf:problem:tag-exhausted", ErrLimitReached},
		{503, "urn:leaf:problem:app-limit-reached", ErrLimitReached},
		{409, "urn:leaf:problem:tag-exists", nil},
	} {
		var second int32
		refusing := fake(t, problemHandler(c.status, c.problemType, "what to do"))
		other := fake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			atomic.AddInt32(&second, 1)
			idLines(w, []int64{1})
		}))
		client, _ := New([]string{refusing.URL, other.URL}, WithLogger(quiet))
		buffer, _ := client.Segment("order")
		_, err := buffer.Next(context.Background())
		client.Close()
		var refusal *RequestError
		if !errors.As(err, &refusal) {
			t.Fatalf("%s: not a *RequestError: %v", c.problemType, err)
		}
		if refusal.Status != c.status || refusal.Type != c.problemType || refusal.Detail != "what to do" {
			t.Errorf("%s: %+v", c.problemType, refusal)
		}
		for _, kind := range []error{ErrUnknownKey, ErrInvalidInput, ErrLimitReached, ErrUnavailable} {
			if errors.Is(err, kind) != (kind == c.want) {
				t.Errorf("%s: errors.Is(%v) is %v", c.problemType, kind, !(kind == c.want))
			}
		}
		if atomic.LoadInt32(&second) != 0 {
			t.Errorf("%s: asked the next server: the request's fault is the same everywhere", c.problemType)
		}
	}
}

func TestNoServerAnsweringIsUnavailable(t *testing.T) {
	down := fake(t, problemHandler(503, "urn:leaf:problem:store-unavailable", "the database is down"))
	client, _ := New([]string{down.URL, "http://127.0.0.1:1"}, WithMaxWait(300*time.Millisecond), WithLogger(quiet))
	defer client.Close()
	buffer, _ := client.Segment("order")
	started := time.Now()
	_, err := buffer.Next(context.Background())
	var unavailable *UnavailableError
	if !errors.Is(err, ErrUnavailable) || !errors.As(err, &unavailable) || len(unavailable.Reasons) != 2 {
		t.Fatalf("not unavailable with the two servers' reasons: %v", err)
	}
	if took := time.Since(started); took > 3*time.Second {
		t.Fatalf("took %v for a max wait of 300 ms", took)
	}
}

// 429, 408 and 5xx are the server's state: the next server is asked, and Retry-After keeps the
// server out for as long as it says.
func TestRetriedStatusesAndRetryAfter(t *testing.T) {
	var busyAsked int32
	busy := fake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		atomic.AddInt32(&busyAsked, 1)
		w.Header().Set("Retry-After", "30")
		problemHandler(429, "urn:leaf:problem:too-many-wrong-tokens", "later")(w, r)
	}))
	good := fake(t, goodSegment(newSource(1)))
	client, _ := New([]string{busy.URL, good.URL}, WithLogger(quiet), WithTargetFetchInterval(time.Millisecond))
	defer client.Close()
	buffer, _ := client.Segment("order")
	ctx := context.Background()
	for i := 0; i < 200; i++ {
		if _, err := buffer.Next(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := atomic.LoadInt32(&busyAsked); n != 1 {
		t.Fatalf("a server that asked for 30 s was asked %d times", n)
	}
	if got := retryAfter(http.Header{"Retry-After": {"600"}}); got != longestRetryAfter {
		t.Fatalf("Retry-After is capped at 60 s: %v", got)
	}
	if got := retryAfter(http.Header{"Retry-After": {"Wed, 21 Oct 2015 07:28:00 GMT"}}); got != -1 {
		t.Fatalf("a date is not taken: %v", got)
	}
}

func TestBackOffDoublesUpToFiveSeconds(t *testing.T) {
	s, _ := newServers([]string{"http://127.0.0.1:1"}, time.Second, time.Second, time.Second, nil)
	srv := s.list[0]
	var seen []time.Duration
	for i := 0; i < 8; i++ {
		before := time.Now()
		s.failed(srv, "test", -1, "")
		seen = append(seen, srv.downUntil.Sub(before).Round(50*time.Millisecond))
	}
	want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second,
		4 * time.Second, 5 * time.Second, 5 * time.Second, 5 * time.Second}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("back-offs %v, not %v", seen, want)
		}
	}
}

func TestArgumentsAreCheckedBeforeAnyRequest(t *testing.T) {
	client, err := New([]string{"http://127.0.0.1:1"}, WithLogger(quiet))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	if _, err := client.Segment("bad tag!"); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("a tag with a space: %v", err)
	}
	if _, err := client.Shard(256, ""); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("app 256: %v", err)
	}
	if _, err := client.Format(""); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("an empty format: %v", err)
	}
	for _, servers := range [][]string{nil, {"ftp://x"}, {"http://"}, {"localhost:8080"}} {
		if _, err := New(servers); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("servers %q: %v", servers, err)
		}
	}
	if c, err := New([]string{"http://a:1, http://b:2/"}); err != nil || len(c.servers.list) != 2 || c.servers.list[1].url != "http://b:2" {
		t.Errorf("a list separated by commas: %v", err)
	}
}
