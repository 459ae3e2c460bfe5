package leafid

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestFirstBatchIs16AndBatchesFollowTheRateOfUse(t *testing.T) {
	var asked requests
	server := fake(t, asked.record(goodSegment(newSource(1))))
	client, _ := New([]string{server.URL}, WithLogger(quiet), WithTargetFetchInterval(time.Hour))
	defer client.Close()
	buffer, _ := client.Segment("order")
	if _, err := buffer.NextN(context.Background(), 16+32+64+128); err != nil {
		t.Fatal(err)
	}
	counts := asked.asked()
	want := []int64{16, 32, 64, 128}
	if len(counts) < len(want) {
		t.Fatalf("batches %v", counts)
	}
	for i := range want {
		if counts[i] != want[i] {
			t.Fatalf("batches %v, not doubling from 16 while fetches come fast", counts)
		}
	}

	// Fetches slower than four target intervals halve the batch; between one and four, it stays.
	buffer.mu.Lock()
	defer buffer.mu.Unlock()
	buffer.batchSize = 256
	for _, c := range []struct {
		since time.Duration
		want  int64
	}{{5 * time.Hour, 128}, {2 * time.Hour, 128}, {5 * time.Hour, 64}, {time.Minute, 128}} {
		buffer.lastFetch = time.Now().Add(-c.since)
		if got := buffer.sizeLocked(); got != c.want {
			t.Fatalf("%v after the last fetch: a batch of %d, not %d", c.since, got, c.want)
		}
	}
	buffer.batchSize = buffer.maxBatch
	buffer.lastFetch = time.Now()
	if got := buffer.sizeLocked(); got != 1000000 {
		t.Fatalf("past the largest batch: %d", got)
	}
}

func TestRangesAreAskedForSegmentAndShardOnly(t *testing.T) {
	var asked requests
	server := fake(t, asked.record(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/shard/") {
			goodShard(newSource(1), 3)(w, r)
			return
		}
		goodSegment(newSource(1))(w, r)
	})))
	client, _ := New([]string{server.URL}, WithLogger(quiet))
	defer client.Close()
	ctx := context.Background()
	segment, _ := client.Segment("a")
	snowflake, _ := client.Snowflake("")
	shard, _ := client.Shard(3, "")
	for _, b := range []*Buffer{segment, snowflake, shard} {
		if _, err := b.Next(ctx); err != nil {
			t.Fatal(err)
		}
	}
	asked.mu.Lock()
	defer asked.mu.Unlock()
	want := []string{rangesType + ", text/plain;q=0.5", "text/plain", rangesType + ", text/plain;q=0.5"}
	for i := range want {
		if asked.accepts[i] != want[i] {
			t.Fatalf("Accept %q, not %q", asked.accepts, want)
		}
	}
}

func TestIDsAcrossRunsAndBatches(t *testing.T) {
	var next int64 = 100
	// Each answer two runs with a hole: as a segment batch across two blocks.
	server := fake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := countOf(r)
		first := atomic.AddInt64(&next, n+10) - n - 10
		half := n / 2
		writeRanges(w, n, [][2]int64{{first, first + half - 1}, {first + half + 10, first + n + 9}}, 1)
	}))
	client, _ := New([]string{server.URL}, WithLogger(quiet))
	defer client.Close()
	buffer, _ := client.Segment("t")
	ctx := context.Background()
	var all []int64
	for _, n := range []int{1, 7, 100, 3, 1000, 1} {
		ids, err := buffer.NextN(ctx, n)
		if err != nil || len(ids) != n {
			t.Fatal(err, len(ids))
		}
		all = append(all, ids...)
	}
	for i := 0; i < 500; i++ {
		id, err := buffer.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, id)
	}
	if all[0] != 100 {
		t.Fatalf("first ID %d", all[0])
	}
	for i := 1; i < len(all); i++ {
		if all[i] <= all[i-1] {
			t.Fatalf("%d after %d", all[i], all[i-1])
		}
		// Each step is 1, or the hole of 10 between two runs, or a batch's start.
		if step := all[i] - all[i-1]; step != 1 && step != 11 {
			t.Fatalf("an ID skipped: %d after %d", all[i], all[i-1])
		}
	}
}

func TestTheNextBatchIsFetchedBeforeThisOneRunsOut(t *testing.T) {
	var asked requests
	server := fake(t, asked.record(goodSegment(newSource(1))))
	client, _ := New([]string{server.URL}, WithLogger(quiet))
	defer client.Close()
	buffer, _ := client.Segment("t")
	// A batch of 16 and a threshold of a tenth: taking the 15th leaves 1, and starts the next fetch.
	if _, err := buffer.NextN(context.Background(), 14); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if n := len(asked.asked()); n != 1 {
		t.Fatalf("%d fetches with 2 of 16 left", n)
	}
	if _, err := buffer.Next(context.Background()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(asked.asked()) < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := len(asked.asked()); n != 2 {
		t.Fatalf("no prefetch with 1 of 16 left: %d fetches", n)
	}
}

// Without prefetch (the leafid command) a fetch asks for no more than the call lacks.
func TestWithoutPrefetchNothingIsTakenAhead(t *testing.T) {
	for _, n := range []int{1, 3, 1000, 2500} {
		var asked requests
		src := newSource(1)
		server := fake(t, asked.record(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			idLines(w, src.take(countOf(r))) // lines only, as a snowflake server answers
		})))
		first := n
		if first > 1000 {
			first = 1000
		}
		client, _ := New([]string{server.URL}, WithLogger(quiet), WithFirstBatch(first), WithPrefetchThreshold(0))
		snowflake, _ := client.Snowflake("k")
		if _, err := snowflake.NextN(context.Background(), n); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
		client.Close()
		var total int64
		for _, c := range asked.asked() {
			total += c
		}
		if total != int64(n) {
			t.Fatalf("asked for %v to take %d", asked.asked(), n)
		}
	}
}

// A server that refuses a batch as too large (leaf.max-batch, or older than ranges) makes the
// client halve its largest batch, not fail.
func TestABatchTooLargeIsHalved(t *testing.T) {
	var asked requests
	src := newSource(1)
	server := fake(t, asked.record(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if countOf(r) > 100 {
			problemHandler(400, problemInvalidCount, "count is 1..100 (leaf.max-batch)")(w, r)
			return
		}
		idLines(w, src.take(countOf(r)))
	})))
	client, _ := New([]string{server.URL}, WithLogger(quiet))
	defer client.Close()
	buffer, _ := client.Segment("t")
	ids, err := buffer.NextN(context.Background(), 5000)
	if err != nil {
		t.Fatal(err)
	}
	assertOnce(t, ids)
	for _, c := range asked.asked()[len(asked.asked())-3:] {
		if c > 100 {
			t.Fatalf("still asking for %d: %v", c, asked.asked())
		}
	}
}

func TestACallerGivingUpAndClose(t *testing.T) {
	stall := make(chan struct{})
	server := fake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stall:
		case <-r.Context().Done():
		}
	}))
	defer close(stall)
	client, _ := New([]string{server.URL}, WithLogger(quiet), WithRequestTimeout(10*time.Second))
	buffer, _ := client.Segment("t")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	started := time.Now()
	if _, err := buffer.Next(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("not the caller's deadline: %v", err)
	}
	if took := time.Since(started); took > 2*time.Second {
		t.Fatalf("the caller waited %v", took)
	}
	client.Close()
	if _, err := buffer.Next(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
	if len(client.BadAnswers()) != 0 {
		t.Fatalf("a request cut off by Close counted as a bad answer: %v", client.BadAnswers())
	}
}

// From a batch in memory Next allocates nothing.
func TestNextAllocatesNothing(t *testing.T) {
	server := fake(t, goodSegment(newSource(1)))
	client, _ := New([]string{server.URL}, WithLogger(quiet), WithFirstBatch(1<<30), WithMaxRangeBatch(1<<31))
	defer client.Close()
	buffer, _ := client.Segment("t")
	ctx := context.Background()
	if _, err := buffer.Next(ctx); err != nil {
		t.Fatal(err)
	}
	if allocs := testing.AllocsPerRun(100000, func() { buffer.Next(ctx) }); allocs != 0 {
		t.Fatalf("%v allocations per Next", allocs)
	}
}

func BenchmarkNextFromMemory(b *testing.B) {
	server := fake(&testing.T{}, goodSegment(newSource(1)))
	defer server.Close()
	client, _ := New([]string{server.URL}, WithLogger(quiet), WithFirstBatch(1<<40), WithMaxRangeBatch(1<<41))
	defer client.Close()
	buffer, _ := client.Segment("t")
	ctx := context.Background()
	buffer.Next(ctx)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			buffer.Next(ctx)
		}
	})
}
