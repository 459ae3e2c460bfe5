package leafid

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"
)

// The client against servers that answer badly in one way each, listed first beside a good one:
// every ID it hands out comes from the good server, none twice, and each bad answer is refused
// and counted.

// takeAll takes n IDs with Next from goroutines sharing one buffer.
func takeAll(t *testing.T, buffer *Buffer, n, goroutines int) []int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var mu sync.Mutex
	var all []int64
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make([]int64, 0, n/goroutines)
			for i := 0; i < n/goroutines; i++ {
				id, err := buffer.Next(ctx)
				if err != nil {
					errs <- err
					return
				}
				mine = append(mine, id)
			}
			mu.Lock()
			all = append(all, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("Next: %v", err)
	}
	return all
}

func assertOnce(t *testing.T, ids []int64) {
	t.Helper()
	sorted := append([]int64(nil), ids...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			t.Fatalf("ID %d handed out twice", sorted[i])
		}
	}
}

func refusedBy(c *Client, url string) int {
	total := 0
	for key, n := range c.BadAnswers() {
		if key.Server == url {
			total += n
		}
	}
	return total
}

// The check each bad server's first answer fails.
var expectedCheck = map[string]string{
	"garbage":         "format",
	"zeros":           "increasing",
	"repeated":        "increasing",
	"decreasing":      "increasing",
	"short":           "count",
	"overlong-ranges": "count",
	"negative-ranges": "positive",
	"huge-number":     "format",
	"drip":            "deadline",
	"endless":         "size",
}

func TestEveryBadServerIsRefusedAndTheGoodOneServes(t *testing.T) {
	for name, behaviour := range badBehaviours {
		name, behaviour := name, behaviour
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			goodSource := newSource(1)
			bad := fake(t, behaviour(newSource(1e15)))
			good := fake(t, goodSegment(goodSource))
			client, err := New([]string{bad.URL, good.URL}, WithRequestTimeout(500*time.Millisecond),
				WithMaxWait(5*time.Second), WithLogger(quiet))
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			buffer, _ := client.Segment("t")
			const n, goroutines = 5000, 4
			ids := takeAll(t, buffer, n, goroutines)
			if len(ids) != n {
				t.Fatalf("%d IDs, not %d", len(ids), n)
			}
			assertOnce(t, ids)
			for _, id := range ids {
				if id < 1 || id >= goodSource.below() {
					t.Fatalf("ID %d was not given by the good server", id)
				}
			}
			// A redirect and a 503 are failures of the server, not answers judged.
			if check := expectedCheck[name]; check != "" {
				if client.BadAnswers()[BadAnswerKey{bad.URL, check}] == 0 {
					t.Fatalf("no bad answer of %s counted as %q: %v", name, check, client.BadAnswers())
				}
			} else if refusedBy(client, bad.URL) != 0 {
				t.Fatalf("%s counted as a bad answer: %v", name, client.BadAnswers())
			}
		})
	}
}

func TestShardAnswersOfAnotherAppOrShardAreRefused(t *testing.T) {
	const app = 1
	pass := "alice@example.com" // shard 61
	for name, handler := range map[string]func(*source) http.HandlerFunc{
		"wrong-app":   func(s *source) http.HandlerFunc { return goodShard(s, app+1) },
		"wrong-shard": func(s *source) http.HandlerFunc { return fixedShard(s, app, 5) },
		"repeated":    func(s *source) http.HandlerFunc { return repeatedShard(app, shardOf(pass)) },
	} {
		name, handler := name, handler
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			goodSource := newSource(1)
			bad := fake(t, handler(newSource(1e9)))
			good := fake(t, goodShard(goodSource, app))
			client, _ := New([]string{bad.URL, good.URL}, WithRequestTimeout(500*time.Millisecond), WithLogger(quiet))
			defer client.Close()
			buffer, err := client.Shard(app, pass)
			if err != nil {
				t.Fatal(err)
			}
			ids := takeAll(t, buffer, 3000, 4)
			assertOnce(t, ids)
			for _, id := range ids {
				if id&0xFF != app || (id>>8)&0x3F != 61 || id>>14 >= goodSource.below() {
					t.Fatalf("ID %d is not one the good server gave", id)
				}
			}
			if refusedBy(client, bad.URL) == 0 {
				t.Fatalf("no bad answer counted: %v", client.BadAnswers())
			}
		})
	}
}

// A server answering two shard answers in turn (a balancer over two copies of one store): the
// first of each is new to the client, each after that repeats one, and is refused.
func TestAlternatingShardAnswersAreRefused(t *testing.T) {
	const app = 1
	var mu sync.Mutex
	turn := 0
	alternating := fake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		turn++
		odd := turn%2 == 1
		mu.Unlock()
		n := countOf(r)
		start := int64(1_000_000)
		if odd {
			start = 2_000_000
		}
		ids := make([]int64, n)
		for i := range ids {
			ids[i] = shardID(start+int64(i), 0, app)
		}
		idLines(w, ids)
	}))
	goodSource := newSource(1)
	good := fake(t, goodShard(goodSource, app))
	client, _ := New([]string{alternating.URL, good.URL}, WithRequestTimeout(500*time.Millisecond), WithLogger(quiet))
	defer client.Close()
	buffer, _ := client.Shard(app, "")
	ids := takeAll(t, buffer, 4000, 4)
	assertOnce(t, ids)
	if client.BadAnswers()[BadAnswerKey{alternating.URL, "repeated"}] == 0 {
		t.Fatalf("the repeated answers were not refused: %v", client.BadAnswers())
	}
}

// A server replaying the IDs another one gave (a replaying proxy, a server on a copied store): once
// the good one is gone, every answer it gives is behind what was served, and refused.
func TestAServerReplayingWhatAnotherGaveIsRefused(t *testing.T) {
	recording := newSource(1)
	recording.keep = true
	good := fake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { idLines(w, recording.take(countOf(r))) }))
	replaying := fake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { idLines(w, recording.replay(countOf(r))) }))
	client, _ := New([]string{good.URL, replaying.URL}, WithRequestTimeout(500*time.Millisecond),
		WithMaxWait(time.Second), WithLogger(quiet))
	defer client.Close()
	buffer, _ := client.Snowflake("k")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var ids []int64
	for i := 0; i < 3000; i++ {
		id, err := buffer.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	good.CloseClientConnections()
	good.Close()
	for {
		id, err := buffer.Next(ctx)
		if err != nil {
			if !errors.Is(err, ErrUnavailable) {
				t.Fatalf("not ErrUnavailable: %v", err)
			}
			break
		}
		ids = append(ids, id)
	}
	assertOnce(t, ids)
	if refusedBy(client, replaying.URL) == 0 {
		t.Fatalf("the replayed answers were not refused: %v", client.BadAnswers())
	}
}

// Two answers that overlap, the second arriving after the first was served from: refused.
func TestAnOverlappingAnswerIsRefused(t *testing.T) {
	var mu sync.Mutex
	next := int64(1)
	overlapping := fake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n := countOf(r)
		first := next
		next += n - 1 // each answer starts at the last ID of the one before
		mu.Unlock()
		writeRanges(w, n, [][2]int64{{first, first + n - 1}}, 1)
	}))
	good := fake(t, goodSegment(newSource(1e6)))
	client, _ := New([]string{overlapping.URL, good.URL}, WithLogger(quiet))
	defer client.Close()
	buffer, _ := client.Segment("t")
	ids := takeAll(t, buffer, 2000, 2)
	assertOnce(t, ids)
	if len(client.BadAnswers()) == 0 {
		t.Fatal("no overlap refused")
	}
}
