package leafid

import (
	"errors"
	"reflect"
	"testing"
)

var (
	segmentKind   = kind{name: "segment", increasing: true, stride: 1, app: -1, shard: -1}
	snowflakeKind = kind{name: "snowflake", increasing: true, stride: 1, app: -1, shard: -1}
	shardKind     = kind{name: "shard", stride: shardStride, app: 1, shard: 61}
)

// Java's String.hashCode, worked out by hand as s[0]*31^(n-1) + … + s[n-1] over UTF-16 units, mod
// 2^32, and the shard the server makes of it.
func TestJavaStringHashAndShard(t *testing.T) {
	for _, c := range []struct {
		text  string
		hash  int32
		shard int
	}{
		{"a", 97, 33},
		{"ab", 97*31 + 98, 33},
		{"alice@example.com", 2145772861, 61}, // docs/shard-mode.md: shard 61 of app 1
		{"bob@example.com", 467379442, 50},
		{"carol@example.com", -1264159250, 18}, // negative: Math.abs first
		{"dave@example.com", -678134615, 23},
		{"héllo", 103094734, 14},
		{"\U0001F600", 0xD83D*31 + 0xDE00, 35}, // beyond the basic plane: two UTF-16 units
		{"polygenelubricants", -1 << 31, 0},    // Integer.MIN_VALUE: Math.abs keeps it, % 64 is 0
		{"+8613800138000", 296554087, 39},
	} {
		if got := javaStringHash(c.text); got != c.hash {
			t.Errorf("hash of %q: %d, not %d", c.text, got, c.hash)
		}
		if got := shardOf(c.text); got != c.shard {
			t.Errorf("shard of %q: %d, not %d", c.text, got, c.shard)
		}
	}
}

func checkOf(err error) string {
	var answer *badAnswer
	if errors.As(err, &answer) {
		return answer.check
	}
	return ""
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		name        string
		body        string
		contentType string
		asked       int64
		k           kind
		runs        []run
		check       string
	}{
		{"lines", "5\n6\n7\n", "text/plain", 3, segmentKind, []run{{5, 7, 1}}, ""},
		{"lines without the last newline", "5\n6\n9", "text/plain", 3, segmentKind, []run{{5, 6, 1}, {9, 9, 1}}, ""},
		{"too few lines", "5\n6\n", "text/plain", 3, segmentKind, nil, "count"},
		{"too many lines", "5\n6\n7\n8\n", "text/plain", 3, segmentKind, nil, "count"},
		{"an empty line", "5\n\n7\n", "text/plain", 3, segmentKind, nil, "format"},
		{"only a newline", "\n", "text/plain", 1, segmentKind, nil, "format"},
		{"empty", "", "text/plain", 1, segmentKind, nil, "count"},
		{"a sign", "+5\n", "text/plain", 1, segmentKind, nil, "format"},
		{"a carriage return", "5\r\n", "text/plain", 1, segmentKind, nil, "format"},
		{"twenty digits", "12345678901234567890\n", "text/plain", 1, segmentKind, nil, "format"},
		{"past int64", "9223372036854775808\n", "text/plain", 1, segmentKind, nil, "format"},
		{"the largest int64", "9223372036854775807\n", "text/plain", 1, segmentKind, []run{{1<<63 - 1, 1<<63 - 1, 1}}, ""},
		{"shard lines stay apart", "16641\n33025\n", "text/plain", 2, shardKind, []run{{16641, 16641, 1}, {33025, 33025, 1}}, ""},
		{"ranges", `{"count":1000,"ranges":[["4001","5000"]]}`, rangesType, 1000, segmentKind, []run{{4001, 5000, 1}}, ""},
		{"ranges across blocks", `{"count":5,"ranges":[["1","2"],["10","12"]]}`, rangesType + ";charset=UTF-8", 5, segmentKind, []run{{1, 2, 1}, {10, 12, 1}}, ""},
		{"ranges as numbers", `{"count":2,"ranges":[[1,2]]}`, rangesType, 2, segmentKind, []run{{1, 2, 1}}, ""},
		{"ranges declaring another count", `{"count":3,"ranges":[["1","2"]]}`, rangesType, 2, segmentKind, nil, "count"},
		{"ranges short", `{"count":3,"ranges":[["1","2"]]}`, rangesType, 3, segmentKind, nil, "count"},
		{"ranges overlong", `{"count":3,"ranges":[["1","4611686018427387904"]]}`, rangesType, 3, segmentKind, nil, "count"},
		{"ranges over all of int64", `{"count":3,"ranges":[["-9223372036854775808","9223372036854775807"]]}`, rangesType, 3, segmentKind, nil, "count"},
		{"ranges backwards", `{"count":3,"ranges":[["5","3"]]}`, rangesType, 3, segmentKind, nil, "format"},
		{"ranges not increasing", `{"count":4,"ranges":[["5","6"],["6","7"]]}`, rangesType, 4, segmentKind, nil, "increasing"},
		{"ranges not a pair", `{"count":3,"ranges":[["1","2","3"]]}`, rangesType, 3, segmentKind, nil, "format"},
		{"ranges not numbers", `{"count":3,"ranges":[["a","c"]]}`, rangesType, 3, segmentKind, nil, "format"},
		{"ranges without count", `{"ranges":[["1","3"]]}`, rangesType, 3, segmentKind, nil, "format"},
		{"ranges not json", `[1,2`, rangesType, 3, segmentKind, nil, "format"},
		{"shard ranges", `{"count":3,"stride":"16384","ranges":[["15617","48385"]]}`, rangesType, 3, shardKind, []run{{15617, 48385, shardStride}}, ""},
		{"shard ranges off the stride", `{"count":3,"ranges":[["15617","48386"]]}`, rangesType, 3, shardKind, nil, "format"},
	} {
		runs, err := parse([]byte(c.body), c.contentType, c.asked, c.k)
		if got := checkOf(err); got != c.check {
			t.Errorf("%s: check %q (%v), not %q", c.name, got, err, c.check)
			continue
		}
		if c.check == "" && !reflect.DeepEqual(runs, c.runs) {
			t.Errorf("%s: runs %v, not %v", c.name, runs, c.runs)
		}
	}
}

func TestIncreasingAnswersAcrossAnswers(t *testing.T) {
	h := &history{kind: segmentKind}
	// A tag whose max_id started at 0 issues 0 first: skipped.
	kept, err := h.accept([]run{{0, 15, 1}})
	if err != nil || !reflect.DeepEqual(kept, []run{{1, 15, 1}}) {
		t.Fatalf("first answer: %v %v", kept, err)
	}
	if _, err := h.accept([]run{{3, 9, 1}}); checkOf(err) != "behind" {
		t.Fatalf("an answer at or below the mark: %v", err)
	}
	// Only starting below the mark (an older block after a failover): served from above it.
	kept, err = h.accept([]run{{10, 20, 1}, {30, 31, 1}})
	if checkOf(err) != "repeated" {
		t.Fatalf("an answer sharing IDs with one accepted: %v %v", kept, err)
	}
	h2 := &history{kind: snowflakeKind, mark: 15}
	kept, err = h2.accept([]run{{10, 20, 1}, {30, 31, 1}})
	if err != nil || !reflect.DeepEqual(kept, []run{{16, 20, 1}, {30, 31, 1}}) {
		t.Fatalf("an answer starting below the mark: %v %v", kept, err)
	}
	if _, err := h.accept([]run{{-5, 100, 1}}); checkOf(err) != "positive" {
		t.Fatalf("a negative ID: %v", err)
	}
	if _, err := h.accept([]run{{100, 110, 1}, {105, 120, 1}}); checkOf(err) != "increasing" {
		t.Fatalf("runs overlapping: %v", err)
	}
	// The window is the last four answers: an older one is judged by the mark alone.
	h3 := &history{kind: segmentKind}
	for i := int64(0); i < 6; i++ {
		if _, err := h3.accept([]run{{100 + 10*i, 105 + 10*i, 1}}); err != nil {
			t.Fatal(err)
		}
	}
	if len(h3.recent) != recentAnswers {
		t.Fatalf("%d answers remembered", len(h3.recent))
	}
}

func TestShardAnswers(t *testing.T) {
	h := &history{kind: shardKind}
	id := func(index int64) int64 { return shardID(index, 61, 1) }
	if _, err := h.accept([]run{{id(1), id(3), shardStride}}); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		runs  []run
		check string
	}{
		"repeated":         {[]run{{id(3), id(3), 1}}, "repeated"},
		"twice in one":     {[]run{{id(9), id(9), 1}, {id(9), id(9), 1}}, "repeated"},
		"another app":      {[]run{{shardID(5, 61, 2), shardID(5, 61, 2), 1}}, "app"},
		"another shard":    {[]run{{shardID(5, 60, 1), shardID(5, 60, 1), 1}}, "shard"},
		"zero":             {[]run{{0, 0, 1}}, "positive"},
		"below zero":       {[]run{{-16383, -16383, 1}}, "positive"},
		"fine, any order":  {[]run{{id(7), id(7), 1}, {id(5), id(5), 1}}, ""},
		"fine, after that": {[]run{{id(6), id(6), 1}}, ""},
	} {
		if _, err := h.accept(c.runs); checkOf(err) != c.check {
			t.Errorf("%s: %v, not check %q", name, err, c.check)
		}
	}
	// The window keeps the last 16384 IDs by value.
	w := &history{kind: kind{name: "shard", stride: shardStride, app: 1, shard: -1}}
	for i := int64(1); i <= recentShardIDs+10; i++ {
		if _, err := w.accept([]run{{shardID(i, 0, 1), shardID(i, 0, 1), 1}}); err != nil {
			t.Fatal(err)
		}
	}
	if len(w.shardIDs.set) != recentShardIDs {
		t.Fatalf("%d IDs remembered", len(w.shardIDs.set))
	}
	if _, err := w.accept([]run{{shardID(5, 0, 1), shardID(5, 0, 1), 1}}); err != nil {
		t.Fatalf("an ID older than the window is not caught, by design: %v", err)
	}
	if _, err := w.accept([]run{{shardID(recentShardIDs, 0, 1), shardID(recentShardIDs, 0, 1), 1}}); checkOf(err) != "repeated" {
		t.Fatalf("an ID within the window: %v", err)
	}
}

func TestFirstShared(t *testing.T) {
	a := []run{{1, 5, 1}, {10, 20, 1}}
	if v, ok := firstShared(a, []run{{6, 9, 1}, {21, 30, 1}}); ok {
		t.Fatalf("nothing shared, got %d", v)
	}
	if v, ok := firstShared(a, []run{{6, 9, 1}, {15, 30, 1}}); !ok || v != 15 {
		t.Fatalf("15 shared, got %d %v", v, ok)
	}
}
