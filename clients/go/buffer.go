package leafid

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A Buffer holds the IDs of one segment tag, of snowflake, or of one shard-mode app and shard:
// fetched in batches, checked, served from memory, the next batch fetched in the background (a
// goroutine) before this one runs out.
//
// Serving is one atomic add on the current batch's counter of IDs taken and an arithmetic step
// into its runs: no lock and no allocation per ID while a batch lasts. A batch is kept as the runs
// its answer stood for, never written out, so a range of a million IDs costs what one ID costs.
// The mutex is taken only to switch to the next batch, to start a fetch, and to accept an answer.
type Buffer struct {
	cur atomic.Pointer[batch] // the batch IDs are taken from; nil before the first

	client *Client
	path   string // e.g. /api/segment/get/order
	accept string
	kind   kind

	mu        sync.Mutex
	queue     []*batch // accepted batches after cur, in the order accepted
	hist      history
	batchSize int64
	maxBatch  int64
	lastFetch time.Time
	inflight  *fetch // the fetch under way, at most one
	wanted    int64  // IDs the calls waiting for a fetch still lack (sizes batches when prefetch is off)
}

// fetch is one batch being fetched; done is closed when it ends, err set before.
type fetch struct {
	done chan struct{}
	err  error
}

// batch is one accepted answer, served by ordinal: taken counts the ordinals claimed, by every
// goroutine; ordinal k is the k-th ID of the runs.
type batch struct {
	taken      atomic.Int64
	count      int64
	prefetchAt int64 // the ordinal whose taking starts the next fetch; -1 for none
	single     bool  // one run: ordinal to ID is first + k*stride
	first      int64
	stride     int64
	runs       []run
	ends       []int64 // ends[i]: the IDs of runs[0..i] together
}

func newBatch(runs []run) *batch {
	b := &batch{runs: runs, ends: make([]int64, len(runs)), single: len(runs) == 1,
		first: runs[0].first, stride: runs[0].stride, prefetchAt: -1}
	for i, r := range runs {
		b.count += r.count()
		b.ends[i] = b.count
	}
	return b
}

// id is the ID of ordinal k (0 ≤ k < count).
func (b *batch) id(k int64) int64 {
	if b.single {
		return b.first + k*b.stride
	}
	i := b.runOf(k)
	start := int64(0)
	if i > 0 {
		start = b.ends[i-1]
	}
	return b.runs[i].at(k - start)
}

// runOf is the run holding ordinal k: a binary search of ends (a batch of lines has up to
// max-batch runs, one of ranges a few).
func (b *batch) runOf(k int64) int {
	low, high := 0, len(b.ends)-1
	for low < high {
		middle := (low + high) / 2
		if b.ends[middle] > k {
			high = middle
		} else {
			low = middle + 1
		}
	}
	return low
}

// fill writes the IDs of ordinals k, k+1, … into dst, walking the runs.
func (b *batch) fill(dst []int64, k int64) {
	i := b.runOf(k)
	start := int64(0)
	if i > 0 {
		start = b.ends[i-1]
	}
	for len(dst) > 0 {
		r := b.runs[i]
		n := b.ends[i] - k
		if n > int64(len(dst)) {
			n = int64(len(dst))
		}
		for j := int64(0); j < n; j++ {
			dst[j] = r.at(k - start + j)
		}
		dst = dst[n:]
		k += n
		start = b.ends[i]
		i++
	}
}

// left is the IDs of the batch not yet claimed.
func (b *batch) left() int64 {
	if taken := b.taken.Load(); taken < b.count {
		return b.count - taken
	}
	return 0
}

func newBuffer(c *Client, path string, k kind, maxBatch int64) *Buffer {
	accept := "text/plain"
	if k.name == "segment" || k.name == "shard" {
		// Ranges where the server offers them; lines from a server older than ranges, and from
		// an opaque shard app.
		accept = rangesType + ", text/plain;q=0.5"
	}
	first := c.opts.firstBatch
	if first > maxBatch {
		first = maxBatch
	}
	if first < 1 {
		first = 1
	}
	return &Buffer{client: c, path: path, accept: accept, kind: k, hist: history{kind: k},
		batchSize: first, maxBatch: maxBatch}
}

// Next is the next ID. It waits (within ctx, and at most the max wait and one request's time once
// the buffer is spent) only when no ID is in memory.
func (b *Buffer) Next(ctx context.Context) (int64, error) {
	if cur := b.cur.Load(); cur != nil {
		k := cur.taken.Add(1) - 1
		if k < cur.count {
			if k == cur.prefetchAt {
				b.prefetch()
			}
			return cur.id(k), nil
		}
	}
	var one [1]int64
	if err := b.slow(ctx, one[:]); err != nil {
		return 0, err
	}
	return one[0], nil
}

// NextN is the next n IDs, claimed at once: in the order of the buffer, increasing for a segment
// tag and snowflake. On an error the IDs claimed so far are dropped, never served again.
func (b *Buffer) NextN(ctx context.Context, n int) ([]int64, error) {
	if n < 1 {
		return nil, invalidArgument("n is at least 1: %d", n)
	}
	out := make([]int64, n)
	got := 0
	if cur := b.cur.Load(); cur != nil {
		var trigger bool
		got, trigger = take(cur, out)
		if trigger {
			b.prefetch()
		}
	}
	if got < n {
		if err := b.slow(ctx, out[got:]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// take claims up to len(dst) IDs of the batch at once and writes them; trigger says the claim
// held the ordinal that starts the next fetch.
func take(cur *batch, dst []int64) (got int, trigger bool) {
	n := int64(len(dst))
	k := cur.taken.Add(n) - n
	if k >= cur.count {
		return 0, false
	}
	m := cur.count - k
	if m > n {
		m = n
	}
	cur.fill(dst[:m], k)
	return int(m), cur.prefetchAt >= k && cur.prefetchAt < k+m
}

// slow fills dst when the current batch is spent: the next batch in memory, else a fetch waited for.
func (b *Buffer) slow(ctx context.Context, dst []int64) error {
	var deadline time.Time
	b.mu.Lock()
	for len(dst) > 0 {
		cur := b.cur.Load()
		if cur != nil {
			got, trigger := take(cur, dst)
			dst = dst[got:]
			if trigger {
				b.prefetchLocked()
			}
			if got > 0 {
				continue
			}
		}
		if len(b.queue) > 0 {
			b.installLocked()
			continue
		}
		// Nothing in memory: wait for the fetch under way, or start one.
		f := b.startFetchLocked()
		need := int64(len(dst))
		b.wanted += need
		b.mu.Unlock()
		if deadline.IsZero() {
			// The fetch gives up after the max wait (and one request's time) with the servers'
			// reasons: wait for them.
			deadline = time.Now().Add(b.client.opts.maxWait + b.client.opts.requestTimeout + time.Second)
		}
		err := wait(ctx, f.done, deadline)
		b.mu.Lock()
		b.wanted -= need
		if err == errWaitedTooLong {
			b.mu.Unlock()
			return &UnavailableError{msg: fmt.Sprintf("leafid: no ID of %s within max wait", b.path)}
		}
		if err != nil {
			b.mu.Unlock()
			return err
		}
		if f.err != nil && len(b.queue) == 0 && (b.cur.Load() == nil || b.cur.Load().left() == 0) {
			b.mu.Unlock()
			return f.err
		}
	}
	b.mu.Unlock()
	return nil
}

var errWaitedTooLong = errors.New("waited too long")

func wait(ctx context.Context, done <-chan struct{}, deadline time.Time) error {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return errWaitedTooLong
	}
}

// installLocked makes the first batch of the queue the current one, its prefetch ordinal set
// before it is published.
func (b *Buffer) installLocked() {
	next := b.queue[0]
	b.queue[0] = nil
	b.queue = b.queue[1:]
	var queued int64
	for _, q := range b.queue {
		queued += q.count
	}
	next.prefetchAt = -1
	if threshold := b.thresholdLocked(); threshold >= 0 && queued <= threshold {
		// Taking ordinal k leaves count-1-k here and queued after: the first k at the threshold.
		k := next.count - 1 - (threshold - queued)
		if k < 0 {
			k = 0
		}
		next.prefetchAt = k
	}
	b.cur.Store(next)
}

// thresholdLocked is how few IDs left start the next fetch, -1 when prefetch is off: the
// prefetch threshold's part of a batch, and a whole batch at the largest size, so that two
// batches are fetched ahead when one lasts less than a fetch takes.
func (b *Buffer) thresholdLocked() int64 {
	part := b.client.opts.prefetchThreshold
	if part <= 0 {
		return -1
	}
	if b.batchSize >= b.maxBatch {
		return b.batchSize
	}
	return int64(float64(b.batchSize) * part)
}

func (b *Buffer) leftLocked() int64 {
	var left int64
	if cur := b.cur.Load(); cur != nil {
		left = cur.left()
	}
	for _, q := range b.queue {
		left += q.count
	}
	return left
}

func (b *Buffer) prefetch() {
	b.mu.Lock()
	b.prefetchLocked()
	b.mu.Unlock()
}

// prefetchLocked starts the next fetch when few IDs are left and none is under way. The trigger
// ordinal is set when a batch is installed; what is in memory may have changed since, so it is
// judged again here.
func (b *Buffer) prefetchLocked() {
	threshold := b.thresholdLocked()
	if threshold < 0 || b.inflight != nil {
		return
	}
	if b.leftLocked() <= threshold {
		b.startFetchLocked()
	}
}

func (b *Buffer) startFetchLocked() *fetch {
	if b.inflight == nil {
		b.inflight = &fetch{done: make(chan struct{})}
		go b.fetch(b.inflight)
	}
	return b.inflight
}

// sizeLocked is the next batch's size: batches follow the rate of use towards one fetch per target
// interval, doubling while fetches come faster and halving when they come four times slower.
func (b *Buffer) sizeLocked() int64 {
	now := time.Now()
	target := b.client.opts.targetFetchInterval
	if !b.lastFetch.IsZero() {
		lasted := now.Sub(b.lastFetch)
		if lasted < target && b.batchSize < b.maxBatch {
			b.batchSize *= 2
			if b.batchSize > b.maxBatch {
				b.batchSize = b.maxBatch
			}
		} else if lasted > 4*target && b.batchSize > 1 {
			b.batchSize /= 2
		}
	}
	b.lastFetch = now
	size := b.batchSize
	// Without prefetch nothing is taken ahead: a fetch asks for no more than the waiting calls
	// lack (the leafid command takes exactly what it prints).
	if b.client.opts.prefetchThreshold <= 0 && b.wanted > 0 && b.wanted < size {
		size = b.wanted
	}
	return size
}

// fetch fetches one batch on its own goroutine, bounded by the client's life, not a caller's.
func (b *Buffer) fetch(f *fetch) {
	var accepted []run
	var err error
	for {
		b.mu.Lock()
		size := b.sizeLocked()
		b.mu.Unlock()
		separator := "?"
		if strings.Contains(b.path, "?") {
			separator = "&"
		}
		path := b.path + separator + "count=" + strconv.FormatInt(size, 10)
		err = b.client.servers.get(b.client.ctx, path, b.accept, bytesPerID*size+1024,
			func(header http.Header, body []byte) error {
				runs, err := parse(body, header.Get("Content-Type"), size, b.kind)
				if err != nil {
					return err
				}
				// Judged and recorded under one lock: two answers in flight are judged against
				// each other.
				b.mu.Lock()
				defer b.mu.Unlock()
				accepted, err = b.hist.accept(runs)
				return err
			})
		var refusal *RequestError
		if errors.As(err, &refusal) && refusal.Type == problemInvalidCount && size > 1 {
			// A batch larger than the servers' limit (leaf.max-batch, or a server older than
			// ranges): halve the largest batch and ask again.
			b.mu.Lock()
			b.maxBatch = size / 2
			if b.batchSize > b.maxBatch {
				b.batchSize = b.maxBatch
			}
			b.mu.Unlock()
			continue
		}
		break
	}
	if err != nil && b.client.ctx.Err() != nil {
		err = ErrClosed
	}
	b.mu.Lock()
	if err == nil && len(accepted) > 0 {
		b.queue = append(b.queue, newBatch(accepted))
	}
	f.err = err
	b.inflight = nil
	close(f.done)
	if err == nil {
		b.prefetchLocked()
	}
	b.mu.Unlock()
}
