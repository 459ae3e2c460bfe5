package leafid

import (
	"context"
	"log"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Client hands out IDs from Leaf servers: one Buffer per segment tag, for snowflake, and per
// shard-mode app and shard, one Format per format. Safe for concurrent use; Close when done.
type Client struct {
	servers *servers
	opts    options
	// ctx bounds the background fetches: Close cancels it.
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	buffers map[bufferKey]*Buffer
	formats map[string]*Format
}

type bufferKey struct {
	mode  string
	key   string
	app   int
	shard int
}

type options struct {
	connectTimeout      time.Duration
	requestTimeout      time.Duration
	maxBatch            int64
	maxRangeBatch       int64
	prefetchThreshold   float64
	maxWait             time.Duration
	targetFetchInterval time.Duration
	firstBatch          int64
	log                 func(string)
}

// Option sets one of the client's options; the defaults are those of the Java and Python clients.
type Option func(*options)

// WithConnectTimeout bounds each connection's setup (default 1 s).
func WithConnectTimeout(d time.Duration) Option { return func(o *options) { o.connectTimeout = d } }

// WithRequestTimeout bounds each request, its whole body included, before the next server is
// asked (default 2 s).
func WithRequestTimeout(d time.Duration) Option { return func(o *options) { o.requestTimeout = d } }

// WithMaxBatch is the largest batch written out ID by ID: snowflake, shard and format batches
// (default 1000, at most the servers' leaf.max-batch).
func WithMaxBatch(n int) Option { return func(o *options) { o.maxBatch = int64(n) } }

// WithMaxRangeBatch is the largest batch of a segment tag, which comes as ranges (default
// 1,000,000, at most the servers' leaf.segment.max-range-batch). A server that refuses a batch as
// too large (invalid-count) halves it.
func WithMaxRangeBatch(n int) Option { return func(o *options) { o.maxRangeBatch = int64(n) } }

// WithPrefetchThreshold is the part of a batch left at which the next one is fetched in the
// background (default 0.1; at the largest batch size a whole batch, so two are fetched ahead).
// 0 turns prefetch off: a fetch is made only when a call finds nothing in memory, and asks for no
// more than the waiting calls lack.
func WithPrefetchThreshold(part float64) Option {
	return func(o *options) { o.prefetchThreshold = part }
}

// WithMaxWait is the longest the servers are asked, in turn and after back-offs, before a call
// fails with ErrUnavailable once its buffer is spent (default 5 s).
func WithMaxWait(d time.Duration) Option { return func(o *options) { o.maxWait = d } }

// WithTargetFetchInterval: batch sizes follow the rate of use towards one fetch per interval
// (default 100 ms).
func WithTargetFetchInterval(d time.Duration) Option {
	return func(o *options) { o.targetFetchInterval = d }
}

// WithFirstBatch is the size of each buffer's first batch (default 16: enough IDs that their order
// can be checked within the answer); later batches follow the rate of use.
func WithFirstBatch(n int) Option { return func(o *options) { o.firstBatch = int64(n) } }

// WithLogger receives the one line written at each failover (default: the standard log package);
// nil keeps quiet.
func WithLogger(logf func(line string)) Option { return func(o *options) { o.log = logf } }

// New is a client of the servers given, asked in that order (the first preferred while it answers
// well). Each is an http:// (or https://) URL; an entry may hold several separated by commas.
func New(serverURLs []string, opts ...Option) (*Client, error) {
	o := options{
		connectTimeout:      time.Second,
		requestTimeout:      2 * time.Second,
		maxBatch:            1000,
		maxRangeBatch:       1000000,
		prefetchThreshold:   0.1,
		maxWait:             5 * time.Second,
		targetFetchInterval: 100 * time.Millisecond,
		firstBatch:          16,
		log:                 func(line string) { log.Print(line) },
	}
	for _, opt := range opts {
		opt(&o)
	}
	switch {
	case o.connectTimeout <= 0 || o.requestTimeout <= 0 || o.maxWait < 0 || o.targetFetchInterval <= 0:
		return nil, invalidArgument("timeouts and the target fetch interval are positive")
	case o.maxBatch < 1 || o.maxRangeBatch < 1 || o.firstBatch < 1:
		return nil, invalidArgument("batch sizes are at least 1")
	case o.prefetchThreshold < 0 || o.prefetchThreshold > 1:
		return nil, invalidArgument("the prefetch threshold is 0..1: %v", o.prefetchThreshold)
	}
	var urls []string
	for _, entry := range serverURLs {
		urls = append(urls, strings.Split(entry, ",")...)
	}
	s, err := newServers(urls, o.connectTimeout, o.requestTimeout, o.maxWait, o.log)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Client{servers: s, opts: o, ctx: ctx, cancel: cancel,
		buffers: map[bufferKey]*Buffer{}, formats: map[string]*Format{}}, nil
}

func (c *Client) buffer(key bufferKey, path string, k kind, maxBatch int64) *Buffer {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.buffers[key]
	if b == nil {
		b = newBuffer(c, path, k, maxBatch)
		c.buffers[key] = b
	}
	return b
}

// Segment is the buffer of a segment tag; its batches come as ranges where the servers offer them.
func (c *Client) Segment(tag string) (*Buffer, error) {
	if err := checkKey("tag", tag); err != nil {
		return nil, err
	}
	return c.buffer(bufferKey{mode: "segment", key: tag}, "/api/segment/get/"+tag,
		kind{name: "segment", increasing: true, stride: 1, app: -1, shard: -1}, c.opts.maxRangeBatch), nil
}

// Snowflake is the buffer of snowflake IDs; the key is checked by the server, not used, as in
// Leaf ("" is "leaf").
func (c *Client) Snowflake(key string) (*Buffer, error) {
	if key == "" {
		key = "leaf"
	}
	if err := checkKey("key", key); err != nil {
		return nil, err
	}
	return c.buffer(bufferKey{mode: "snowflake", key: key}, "/api/snowflake/get/"+key,
		kind{name: "snowflake", increasing: true, stride: 1, app: -1, shard: -1}, c.opts.maxBatch), nil
}

// Shard is the buffer of a shard-mode app (0..255): IDs of the gate pass's shard, or of any shard
// when the gate pass is "". Every gate pass of one shard shares a buffer: they take the same IDs.
func (c *Client) Shard(appID int, gatePass string) (*Buffer, error) {
	if appID < 0 || appID > 255 {
		return nil, invalidArgument("an app id is 0..255: %d", appID)
	}
	path := "/api/shard/get/" + strconv.Itoa(appID)
	k := kind{name: "shard", stride: shardStride, app: appID, shard: -1}
	if gatePass != "" {
		k.shard = shardOf(gatePass)
		// As the other clients quote it: a space is %20, not +.
		path += "?gatePass=" + strings.ReplaceAll(url.QueryEscape(gatePass), "+", "%20")
	}
	return c.buffer(bufferKey{mode: "shard", app: appID, shard: k.shard}, path, k, c.opts.maxBatch), nil
}

// Format is the strings of a format (leaf.formats.<name> on the servers).
func (c *Client) Format(name string) (*Format, error) {
	if err := checkKey("format", name); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.formats[name]
	if f == nil {
		f = newFormat(c, name)
		c.formats[name] = f
	}
	return f, nil
}

// BadAnswers is how many answers were refused, by server and check.
func (c *Client) BadAnswers() map[BadAnswerKey]int {
	return c.servers.badAnswerCounts()
}

// Close stops the background fetches and closes idle connections. IDs still in memory may be
// served; no batch is fetched after it (ErrClosed). IDs left unserved are lost, as Leaf loses the
// rest of a block at a restart, never reused.
func (c *Client) Close() error {
	c.cancel()
	c.servers.close()
	return nil
}

// checkKey: tags and keys are 1-128 characters of A-Z a-z 0-9 . _ : - (the server's rule, checked
// here first).
func checkKey(what, value string) error {
	ok := len(value) >= 1 && len(value) <= 128
	for i := 0; ok && i < len(value); i++ {
		c := value[i]
		ok = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
			c == '.' || c == '_' || c == ':' || c == '-'
	}
	if !ok {
		return invalidArgument("a %s is 1-128 characters of A-Z a-z 0-9 . _ : -: %q", what, value)
	}
	return nil
}
