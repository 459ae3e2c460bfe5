package leafid

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// How an answer is read and checked before one ID of it is handed out. Everything here is the
// server's word judged: a failure is a *badAnswer, the server's fault, never an ID.

const (
	rangesType = "application/vnd.leaf.ranges+json"
	// A decimal ID and its newline: no good answer is longer per ID asked for.
	bytesPerID = 20
	// Answers accepted before, each compared with a new one: two requests in flight at once are
	// judged against each other too.
	recentAnswers = 4
	// Shard IDs have no order across answers: the last IDs served are remembered by value.
	recentShardIDs = 16384
	shardStride    = 1 << 14
	// Digits of the largest int64: a longer line is no ID.
	maxDigits = 19
)

// badAnswer is an answer that fails a check; check is the name counted in BadAnswers.
type badAnswer struct {
	check  string
	detail string
}

func (b *badAnswer) Error() string { return "check " + b.check + ": " + b.detail }

func bad(check, format string, args ...interface{}) *badAnswer {
	return &badAnswer{check: check, detail: fmt.Sprintf(format, args...)}
}

// kind is what a buffer's answers must look like.
type kind struct {
	name       string // segment, snowflake or shard
	increasing bool   // segment and snowflake: strictly increasing, within and across answers
	stride     int64  // 1, or shardStride between consecutive IDs of one shard
	app        int    // the shard app every ID must carry, -1 for none
	shard      int    // the shard every ID must carry, -1 for any
}

// run stands for the IDs first, first+stride, …, last: an answer is kept as runs, never written
// out, so a range of a million IDs costs what one ID costs.
type run struct {
	first, last, stride int64
}

// count is the number of IDs of a well-formed run (last ≥ first, whole strides). The difference
// is taken unsigned, so a run across the whole int64 space does not overflow.
func (r run) count() int64 {
	return int64((uint64(r.last)-uint64(r.first))/uint64(r.stride)) + 1
}

// at is the ID of ordinal i (0 ≤ i < count) of the run.
func (r run) at(i int64) int64 { return r.first + i*r.stride }

// parse reads an answer of asked IDs into its runs: ranges when the Content-Type says so, one
// decimal ID a line otherwise. It checks the form and the count only; history.accept the rest.
func parse(body []byte, contentType string, asked int64, k kind) ([]run, error) {
	if strings.HasPrefix(contentType, rangesType) {
		return parseRanges(body, asked, k)
	}
	return parseLines(body, asked, k)
}

func parseRanges(body []byte, asked int64, k kind) ([]run, error) {
	var answer struct {
		Count  *json.RawMessage   `json:"count"`
		Ranges *[]json.RawMessage `json:"ranges"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		return nil, bad("format", "not an answer as ranges: %v", err)
	}
	if answer.Count == nil || answer.Ranges == nil {
		return nil, bad("format", "not an answer as ranges: no count or no ranges")
	}
	declared, err := jsonInt(*answer.Count)
	if err != nil {
		return nil, bad("format", "not an answer as ranges: count %v", err)
	}
	pairs := make([][2]int64, 0, len(*answer.Ranges))
	for _, raw := range *answer.Ranges {
		var pair []json.RawMessage
		if err := json.Unmarshal(raw, &pair); err != nil || len(pair) != 2 {
			return nil, bad("format", "not an answer as ranges: %.40s is not a pair", raw)
		}
		first, err1 := jsonInt(pair[0])
		last, err2 := jsonInt(pair[1])
		if err1 != nil || err2 != nil {
			return nil, bad("format", "not an answer as ranges: %.40s is not a pair of IDs", raw)
		}
		pairs = append(pairs, [2]int64{first, last})
	}
	runs := make([]run, 0, len(pairs))
	var total int64
	for i, p := range pairs {
		first, last := p[0], p[1]
		if last < first || (uint64(last)-uint64(first))%uint64(k.stride) != 0 {
			return nil, bad("format", "the run %d..%d is not whole steps of %d", first, last, k.stride)
		}
		if k.increasing && i > 0 && first <= pairs[i-1][1] {
			return nil, bad("increasing", "the run %d..%d starts at or below %d", first, last, pairs[i-1][1])
		}
		// Counted before it is added, so a run as long as the ID space is refused, never summed.
		if (uint64(last)-uint64(first))/uint64(k.stride) >= uint64(asked-total) {
			return nil, bad("count", "runs of more than the %d IDs asked for", asked)
		}
		r := run{first, last, k.stride}
		total += r.count()
		runs = append(runs, r)
	}
	if total != asked || declared != asked {
		return nil, bad("count", "%d IDs (%d declared) for %d asked", total, declared, asked)
	}
	return runs, nil
}

// jsonInt is an ID or count written as a JSON string of digits (as Leaf writes them, since IDs
// pass 2^53) or as a JSON whole number.
func jsonInt(raw json.RawMessage) (int64, error) {
	text := string(bytes.TrimSpace(raw))
	if len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"' {
		text = text[1 : len(text)-1]
	}
	if text == "" || strings.Trim(text, "-0123456789") != "" {
		return 0, fmt.Errorf("%.40q is not a whole number", text)
	}
	return strconv.ParseInt(text, 10, 64)
}

func parseLines(body []byte, asked int64, k kind) ([]run, error) {
	// As the other clients split: the empty piece after a final newline is no line, any other is.
	lines := int64(bytes.Count(body, []byte{'\n'})) + 1
	if len(body) == 0 || body[len(body)-1] == '\n' {
		lines--
	}
	if lines != asked {
		return nil, bad("count", "%d lines for %d IDs asked", lines, asked)
	}
	runs := make([]run, 0, 4)
	for i := int64(0); i < lines; i++ {
		line := body
		if j := bytes.IndexByte(body, '\n'); j >= 0 {
			line, body = body[:j], body[j+1:]
		}
		value, ok := decimalID(line)
		if !ok {
			return nil, bad("format", "%.40q is not a decimal ID", line)
		}
		// Consecutive IDs of an increasing kind become one run: served as a range would be.
		if n := len(runs); n > 0 && k.increasing && runs[n-1].stride == 1 && value == runs[n-1].last+1 {
			runs[n-1].last = value
		} else {
			runs = append(runs, run{value, value, 1})
		}
	}
	return runs, nil
}

// decimalID is a line of 1 to 19 ASCII digits that fits an int64.
func decimalID(line []byte) (int64, bool) {
	if len(line) == 0 || len(line) > maxDigits {
		return 0, false
	}
	var value int64
	for _, c := range line {
		if c < '0' || c > '9' {
			return 0, false
		}
		digit := int64(c - '0')
		if value > (1<<63-1-digit)/10 {
			return 0, false
		}
		value = value*10 + digit
	}
	return value, true
}

// history is what a buffer remembers of the answers it accepted, to judge the next one. It is
// guarded by the buffer's mutex.
type history struct {
	kind   kind
	mark   int64   // the largest ID accepted (increasing kinds)
	recent [][]run // the runs of the last answers accepted, oldest first
	// The last recentShardIDs shard IDs, by value.
	shardIDs *recent[int64]
}

// accept returns the runs of the answer this client may serve, or a *badAnswer.
func (h *history) accept(runs []run) ([]run, error) {
	if h.kind.increasing {
		return h.acceptIncreasing(runs)
	}
	return h.acceptShard(runs)
}

func (h *history) acceptIncreasing(runs []run) ([]run, error) {
	for i, r := range runs {
		if r.first < 0 {
			return nil, bad("positive", "%d is below 0", r.first)
		}
		if i > 0 && r.first <= runs[i-1].last {
			return nil, bad("increasing", "%d after %d", r.first, runs[i-1].last)
		}
	}
	high := runs[len(runs)-1].last
	if high <= 0 {
		return nil, bad("positive", "every ID is 0 or below")
	}
	floor := h.mark
	if high <= floor {
		return nil, bad("behind", "every ID is at or below %d, already served", floor)
	}
	for _, before := range h.recent {
		if met, ok := firstShared(before, runs); ok {
			return nil, bad("repeated", "ID %d was in an answer accepted before", met)
		}
	}
	if len(h.recent) == recentAnswers {
		h.recent = append(h.recent[:0], h.recent[1:]...)
	}
	h.recent = append(h.recent, runs)
	h.mark = high
	// An answer that only starts below the mark (a server on an older block after a failover) is
	// served from above it; 0, which a tag starting at 0 issues first, never.
	kept := make([]run, 0, len(runs))
	for _, r := range runs {
		if r.last <= floor {
			continue
		}
		if r.first <= floor {
			r.first += ((floor-r.first)/r.stride + 1) * r.stride
		}
		kept = append(kept, r)
	}
	return kept, nil
}

func (h *history) acceptShard(runs []run) ([]run, error) {
	if h.shardIDs == nil {
		h.shardIDs = newRecent[int64](recentShardIDs)
	}
	seen := make(map[int64]struct{})
	for _, r := range runs {
		for i, n := int64(0), r.count(); i < n; i++ {
			value := r.at(i)
			if value <= 0 {
				return nil, bad("positive", "%d is 0 or below", value)
			}
			if h.kind.app >= 0 && value&0xFF != int64(h.kind.app) {
				return nil, bad("app", "%d is of app %d, not %d", value, value&0xFF, h.kind.app)
			}
			if h.kind.shard >= 0 && (value>>8)&0x3F != int64(h.kind.shard) {
				return nil, bad("shard", "%d is of shard %d, not %d", value, (value>>8)&0x3F, h.kind.shard)
			}
			_, twice := seen[value]
			if twice || h.shardIDs.contains(value) {
				return nil, bad("repeated", "%d was served before", value)
			}
			seen[value] = struct{}{}
		}
	}
	for _, r := range runs {
		for i, n := int64(0), r.count(); i < n; i++ {
			h.shardIDs.add(r.at(i))
		}
	}
	return runs, nil
}

// firstShared is an ID two increasing lists of runs of stride 1 both hold: one walk through both.
// Only increasing kinds are compared so, and their runs step by 1.
func firstShared(a, b []run) (int64, bool) {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		low, high := a[i].first, a[i].last
		if b[j].first > low {
			low = b[j].first
		}
		if b[j].last < high {
			high = b[j].last
		}
		if low <= high {
			return low, true
		}
		if a[i].last < b[j].last {
			i++
		} else {
			j++
		}
	}
	return 0, false
}

// javaStringHash is Java's String.hashCode: over UTF-16 code units, as a signed 32-bit int.
func javaStringHash(text string) int32 {
	var value int32
	for _, r := range text {
		if r >= 0x10000 {
			// A character beyond the basic plane is two UTF-16 units in Java: its surrogates.
			r -= 0x10000
			value = 31*value + int32(0xD800+(r>>10))
			value = 31*value + int32(0xDC00+(r&0x3FF))
			continue
		}
		value = 31*value + int32(r)
	}
	return value
}

// shardOf is the shard of a gate pass as the server computes it: Math.abs(gatePass.hashCode()) % 64,
// where Math.abs(Integer.MIN_VALUE) stays negative and % 64 of it is 0.
func shardOf(gatePass string) int {
	value := javaStringHash(gatePass)
	if value == -1<<31 {
		return 0
	}
	if value < 0 {
		value = -value
	}
	return int(value % 64)
}
