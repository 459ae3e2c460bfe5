package leafid

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"sync"
)

const (
	// Strings of a format remembered, each new answer compared with them.
	recentStrings = 4096
	// Bytes per string asked for: no good answer is longer.
	bytesPerString = 200
	// A format's first batch; later ones double up to max batch.
	firstStringBatch = 16
)

// Format hands out the strings of one format (leaf.formats.<name> on the servers), fetched in
// batches when its buffer is empty. Each answer must carry its pattern in the Leaf-Format header,
// the same on every server (the first one seen is kept), hold exactly the strings asked for, each
// one a string of the pattern with a right check character, and none served before. Safe for
// concurrent use.
type Format struct {
	client *Client
	name   string

	mu      sync.Mutex
	queue   []string
	pattern *pattern // the first pattern accepted: every later answer must name the same
	batch   int
	recent  *recent[string] // the last recentStrings strings accepted
}

func newFormat(c *Client, name string) *Format {
	return &Format{client: c, name: name, batch: firstStringBatch, recent: newRecent[string](recentStrings)}
}

// NextString is the next string of the format.
func (f *Format) NextString(ctx context.Context) (string, error) {
	out, err := f.NextStrings(ctx, 1)
	if err != nil {
		return "", err
	}
	return out[0], nil
}

// NextStrings is the next n strings of the format. A fetch is made while the caller waits, under
// the format's lock: strings are taken far less often than IDs.
func (f *Format) NextStrings(ctx context.Context, n int) ([]string, error) {
	if n < 1 {
		return nil, invalidArgument("n is at least 1: %d", n)
	}
	out := make([]string, 0, n)
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(out) < n {
		if len(f.queue) == 0 {
			if f.client.ctx.Err() != nil {
				return nil, ErrClosed
			}
			maxBatch := int(f.client.opts.maxBatch)
			size := n - len(out)
			if size < f.batch {
				size = f.batch
			}
			if size > maxBatch {
				size = maxBatch
			}
			var accepted []string
			err := f.client.servers.get(ctx, "/api/format/get/"+f.name+"?count="+strconv.Itoa(size), "text/plain",
				int64(bytesPerString*size+1024), func(header http.Header, body []byte) error {
					var err error
					accepted, err = f.accept(header, body, size)
					return err
				})
			if err != nil {
				return nil, err
			}
			f.queue = append(f.queue, accepted...)
			f.batch *= 2
			if f.batch > maxBatch {
				f.batch = maxBatch
			}
		}
		take := n - len(out)
		if take > len(f.queue) {
			take = len(f.queue)
		}
		out = append(out, f.queue[:take]...)
		f.queue = f.queue[take:]
	}
	return out, nil
}

// accept checks an answer of asked strings; called with f.mu held.
func (f *Format) accept(header http.Header, body []byte, asked int) ([]string, error) {
	pattern := header.Get("Leaf-Format")
	if pattern == "" {
		return nil, bad("pattern", "no Leaf-Format header")
	}
	if f.pattern != nil && pattern != f.pattern.text {
		return nil, bad("pattern", "pattern %q, not %q as before", pattern, f.pattern.text)
	}
	parsed := f.pattern
	if parsed == nil {
		var err error
		if parsed, err = parsePattern(pattern); err != nil {
			return nil, bad("pattern", "Leaf-Format: %v", err)
		}
	}
	pieces := bytes.Split(body, []byte{'\n'})
	if len(pieces[len(pieces)-1]) == 0 {
		pieces = pieces[:len(pieces)-1]
	}
	if len(pieces) != asked {
		return nil, bad("count", "%d strings for %d asked", len(pieces), asked)
	}
	lines := make([]string, len(pieces))
	seen := make(map[string]struct{}, len(pieces))
	for i, piece := range pieces {
		line := string(bytes.ToValidUTF8(piece, []byte("\uFFFD")))
		if problem := parsed.problem(line); problem != "" {
			return nil, bad("format", "%.40q %s: not a string of %q", line, problem, pattern)
		}
		_, twice := seen[line]
		if twice || f.recent.contains(line) {
			return nil, bad("repeated", "%q was served before", line)
		}
		seen[line] = struct{}{}
		lines[i] = line
	}
	f.pattern = parsed
	for _, line := range lines {
		f.recent.add(line)
	}
	return lines, nil
}
