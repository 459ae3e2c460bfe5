package leafid

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Servers that answer badly in one way each, and good ones, on 127.0.0.1: what the client must
// refuse (never an ID of theirs handed out) and what it must serve from.

// source hands out numbers once each, as one segment tag (or one shard's indexes) would.
type source struct {
	mu    sync.Mutex
	next  int64
	given []int64 // what a recording source gave, for a replaying server
	keep  bool
}

func newSource(start int64) *source { return &source{next: start} }

func (s *source) take(n int64) []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = s.next + int64(i)
	}
	s.next += n
	if s.keep {
		s.given = append(s.given, ids...)
	}
	return ids
}

// reserve is the first of n numbers, none written out: for answers as ranges of any size.
func (s *source) reserve(n int64) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := s.next
	s.next += n
	return first
}

// issued is the numbers [start, next) handed out so far.
func (s *source) below() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next
}

// replay is the last n numbers given, padded with 1s: what a replaying proxy or a server on a
// copied store answers.
func (s *source) replay(n int64) []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if int64(len(s.given)) >= n {
		return append([]int64(nil), s.given[int64(len(s.given))-n:]...)
	}
	out := append([]int64(nil), s.given...)
	for int64(len(out)) < n {
		out = append(out, 1)
	}
	return out
}

func writeLines(w http.ResponseWriter, values []string) {
	w.Header().Set("Content-Type", "text/plain")
	var b strings.Builder
	for _, v := range values {
		b.WriteString(v)
		b.WriteByte('\n')
	}
	w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
	w.Write([]byte(b.String()))
}

func idLines(w http.ResponseWriter, ids []int64) {
	values := make([]string, len(ids))
	for i, id := range ids {
		values[i] = strconv.FormatInt(id, 10)
	}
	writeLines(w, values)
}

func writeRanges(w http.ResponseWriter, count int64, ranges [][2]int64, stride int64) {
	pairs := make([][2]string, len(ranges))
	for i, r := range ranges {
		pairs[i] = [2]string{strconv.FormatInt(r[0], 10), strconv.FormatInt(r[1], 10)}
	}
	answer := map[string]interface{}{"count": count, "ranges": pairs}
	if stride > 1 {
		answer["stride"] = strconv.FormatInt(stride, 10)
	}
	w.Header().Set("Content-Type", rangesType)
	json.NewEncoder(w).Encode(answer)
}

func countOf(r *http.Request) int64 {
	n, err := strconv.ParseInt(r.URL.Query().Get("count"), 10, 64)
	if err != nil || n < 1 {
		return 1
	}
	return n
}

func wantsRanges(r *http.Request) bool { return strings.Contains(r.Header.Get("Accept"), "ranges") }

// goodSegment counts up from the source: as ranges when asked for them, lines otherwise.
func goodSegment(src *source) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n := countOf(r)
		if wantsRanges(r) {
			first := src.reserve(n)
			writeRanges(w, n, [][2]int64{{first, first + n - 1}}, 1)
			return
		}
		idLines(w, src.take(n))
	}
}

// shardID is index << 14 | shard << 8 | app, as the server makes them.
func shardID(index int64, shard, app int) int64 { return index<<14 | int64(shard)<<8 | int64(app) }

// goodShard issues the indexes of the source in the gate pass's shard (shard 0 without one).
func goodShard(src *source, app int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n := countOf(r)
		shard := 0
		if pass := r.URL.Query().Get("gatePass"); pass != "" {
			shard = shardOf(pass)
		}
		indexes := src.take(n)
		if wantsRanges(r) {
			writeRanges(w, n, [][2]int64{{shardID(indexes[0], shard, app), shardID(indexes[n-1], shard, app)}}, shardStride)
			return
		}
		ids := make([]int64, n)
		for i, index := range indexes {
			ids[i] = shardID(index, shard, app)
		}
		idLines(w, ids)
	}
}

// fixedShard issues IDs of one shard whatever the gate pass: the wrong shard for most.
func fixedShard(src *source, app, shard int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		indexes := src.take(countOf(r))
		ids := make([]int64, len(indexes))
		for i, index := range indexes {
			ids[i] = shardID(index, shard, app)
		}
		idLines(w, ids)
	}
}

// repeatedShard answers one ID of the right app and shard as many times as asked.
func repeatedShard(app, shard int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ids := make([]int64, countOf(r))
		for i := range ids {
			ids[i] = shardID(7, shard, app)
		}
		idLines(w, ids)
	}
}

// bad answers of count n, drawing on a source of its own where it gives IDs.
var badBehaviours = map[string]func(src *source) http.HandlerFunc{
	"garbage": func(*source) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			values := make([]string, countOf(r))
			for i := range values {
				values[i] = fmt.Sprintf("x%d", i)
			}
			writeLines(w, values)
		}
	},
	"zeros": func(*source) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { idLines(w, make([]int64, countOf(r))) }
	},
	"repeated": func(*source) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			ids := make([]int64, countOf(r))
			for i := range ids {
				ids[i] = 7
			}
			idLines(w, ids)
		}
	},
	"decreasing": func(*source) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			n := countOf(r)
			ids := make([]int64, n)
			for i := range ids {
				ids[i] = 1e12 + n - int64(i)
			}
			idLines(w, ids)
		}
	},
	"short": func(src *source) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { idLines(w, src.take(countOf(r)-1)) }
	},
	"redirect": func(*source) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", "http://127.0.0.1:1/elsewhere")
			w.WriteHeader(http.StatusFound)
		}
	},
	"overlong-ranges": func(*source) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			writeRanges(w, countOf(r), [][2]int64{{1, 1 << 62}}, 1)
		}
	},
	"negative-ranges": func(*source) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			n := countOf(r)
			writeRanges(w, n, [][2]int64{{-n, -1}}, 1)
		}
	},
	"huge-number": func(*source) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			values := make([]string, countOf(r))
			for i := range values {
				values[i] = "9999999999999999999" // 19 digits, past int64
			}
			writeLines(w, values)
		}
	},
	"server-error": func(*source) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"type":"urn:leaf:problem:store-unavailable","detail":"down"}`))
		}
	},
	// A body of the right length, one byte each 50 ms: cut off at the request's deadline.
	"drip": func(src *source) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			var b strings.Builder
			for _, id := range src.take(countOf(r)) {
				fmt.Fprintf(&b, "%d\n", id)
			}
			body := b.String()
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(http.StatusOK)
			flusher := w.(http.Flusher)
			for i := 0; i < len(body); i++ {
				if _, err := w.Write([]byte{body[i]}); err != nil {
					return
				}
				flusher.Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
		}
	},
	// A body that never ends: cut off at the size limit.
	"endless": func(*source) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			chunk := []byte(strings.Repeat("1\n", 1000))
			for r.Context().Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}
	},
}

// fake is one server started for a test, closed at its end.
func fake(t *testing.T, handler http.Handler) *httptest.Server {
	t.Helper()
	server := httptest.NewServer(handler)
	t.Cleanup(func() {
		// A dripping or endless handler is still writing to a client that left: cut it off.
		server.CloseClientConnections()
		server.Close()
	})
	return server
}

// requests counts the requests a handler received and the counts they asked for.
type requests struct {
	mu      sync.Mutex
	counts  []int64
	accepts []string
}

func (q *requests) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q.mu.Lock()
		q.counts = append(q.counts, countOf(r))
		q.accepts = append(q.accepts, r.Header.Get("Accept"))
		q.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

func (q *requests) asked() []int64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]int64(nil), q.counts...)
}

func problemHandler(status int, problemType, detail string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]interface{}{"type": problemType, "status": status, "detail": detail})
	}
}

// quiet is a logger that keeps the test output to the failures.
func quiet(string) {}
