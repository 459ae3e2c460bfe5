// Command leafid-speed measures the client, printing two lines:
//
//	end-to-end <ids/s>   goroutines taking IDs with Next from a client of the real server given
//	                     (a segment tag, its batches as ranges), fetches and checks included
//	buffered <ids/s>     the same goroutines taking IDs with Next from a batch already in memory:
//	                     one range of 2^40 IDs that an in-process fake server answered before the
//	                     clock started, so no fetch is made while it runs
//
//	leafid-speed --servers URL --segment TAG [--seconds S] [--goroutines G]
//
// Each figure is the IDs taken over the wall-clock time of S seconds. The IDs are not kept.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	leafid "github.com/leafid/leaf/clients/go"
)

func main() {
	servers := flag.String("servers", "", "URL[,URL...] of the real servers")
	tag := flag.String("segment", "", "the segment tag to take IDs of")
	seconds := flag.Float64("seconds", 5, "how long each measure lasts")
	goroutines := flag.Int("goroutines", runtime.GOMAXPROCS(0), "goroutines taking IDs")
	flag.Parse()
	if *servers == "" || *tag == "" || *seconds <= 0 || *goroutines < 1 {
		fmt.Fprintln(os.Stderr, "leafid-speed: --servers and --segment are required; --seconds and --goroutines positive")
		os.Exit(1)
	}
	duration := time.Duration(*seconds * float64(time.Second))

	endToEnd, err := measure([]string{*servers}, *tag, duration, *goroutines)
	if err != nil {
		fmt.Fprintln(os.Stderr, "leafid-speed:", err)
		os.Exit(1)
	}
	fmt.Printf("end-to-end %.0f\n", endToEnd)

	fake := httptest.NewServer(http.HandlerFunc(hugeRanges))
	defer fake.Close()
	const huge = 1 << 40
	// One batch of 2^40 IDs, fetched by the first Next; the threshold of the next fetch (a tenth of
	// a batch below the largest) is never reached while the measure runs.
	buffered, err := measure([]string{fake.URL}, "speed", duration, *goroutines,
		leafid.WithFirstBatch(huge), leafid.WithMaxRangeBatch(2*huge))
	if err != nil {
		fmt.Fprintln(os.Stderr, "leafid-speed:", err)
		os.Exit(1)
	}
	fmt.Printf("buffered %.0f\n", buffered)
}

// measure is the IDs per second that goroutines take with Next for the duration, after one Next
// each made the buffer's first fetch (not timed).
func measure(servers []string, tag string, duration time.Duration, goroutines int, opts ...leafid.Option) (float64, error) {
	client, err := leafid.New(servers, append(opts, leafid.WithLogger(nil))...)
	if err != nil {
		return 0, err
	}
	defer client.Close()
	buffer, err := client.Segment(tag)
	if err != nil {
		return 0, err
	}
	ctx := context.Background()
	if _, err := buffer.Next(ctx); err != nil {
		return 0, err
	}
	var stop atomic.Bool
	var total atomic.Int64
	var failure atomic.Value
	var wg sync.WaitGroup
	start := time.Now()
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var taken int64
			for !stop.Load() {
				// The stop flag is read once per 1024 IDs: not a cost of its own in the figure.
				for i := 0; i < 1024; i++ {
					if _, err := buffer.Next(ctx); err != nil {
						failure.Store(err)
						stop.Store(true)
						break
					}
					taken++
				}
			}
			total.Add(taken)
		}()
	}
	time.Sleep(duration)
	stop.Store(true)
	wg.Wait()
	elapsed := time.Since(start)
	if err, _ := failure.Load().(error); err != nil {
		return 0, err
	}
	return float64(total.Load()) / elapsed.Seconds(), nil
}

var next int64 = 1

// hugeRanges answers any count as one range, as a segment server asked for ranges does.
func hugeRanges(w http.ResponseWriter, r *http.Request) {
	count, err := strconv.ParseInt(r.URL.Query().Get("count"), 10, 64)
	if err != nil || count < 1 {
		count = 1
	}
	first := atomic.AddInt64(&next, count) - count
	w.Header().Set("Content-Type", "application/vnd.leaf.ranges+json")
	fmt.Fprintf(w, `{"count":%d,"ranges":[["%d","%d"]]}`, count, first, first+count-1)
}
