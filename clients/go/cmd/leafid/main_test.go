package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// leaf answers a segment tag "t" as lines from 1 (recording the counts asked), and 404
// unknown-tag for any other.
type leaf struct {
	mu     sync.Mutex
	next   int64
	counts []int64
}

func (l *leaf) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/segment/get/t" {
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(404)
		fmt.Fprint(w, `{"type":"urn:leaf:problem:unknown-tag","status":404,"detail":"Tag is not in leaf_alloc"}`)
		return
	}
	n, _ := strconv.ParseInt(r.URL.Query().Get("count"), 10, 64)
	l.mu.Lock()
	first := l.next + 1
	l.next += n
	l.counts = append(l.counts, n)
	l.mu.Unlock()
	for i := int64(0); i < n; i++ {
		fmt.Fprintf(w, "%d\n", first+i)
	}
}

func runLeafid(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestPrintsExactlyWhatItTakes(t *testing.T) {
	for _, count := range []int{1, 3, 2500} {
		server := &leaf{}
		httpServer := httptest.NewServer(server)
		code, out, errOut := runLeafid("--servers", httpServer.URL, "--segment", "t", "--count", strconv.Itoa(count))
		httpServer.Close()
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		lines := strings.Fields(out)
		if len(lines) != count || lines[0] != "1" || lines[count-1] != strconv.Itoa(count) {
			t.Fatalf("printed %d lines: %.60q", len(lines), out)
		}
		var asked int64
		for _, n := range server.counts {
			asked += n
		}
		if asked != int64(count) || server.counts[0] != int64(min(count, 1000)) {
			t.Fatalf("asked for %v to print %d", server.counts, count)
		}
	}
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func TestProblemsExitOne(t *testing.T) {
	server := httptest.NewServer(&leaf{})
	defer server.Close()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--servers", server.URL, "--segment", "other"}, "unknown-tag"},
		{[]string{"--servers", server.URL}, "one of --segment"},
		{[]string{"--servers", server.URL, "--segment", "t", "--snowflake", "k"}, "one of --segment"},
		{[]string{"--segment", "t"}, "--servers is required"},
		{[]string{"--servers", server.URL, "--segment", "t", "--count", "0"}, "--count"},
		{[]string{"--servers", server.URL, "--segment", "t", "--gate-pass", "p"}, "--gate-pass goes with --shard"},
		{[]string{"--servers", server.URL, "--shard", "x"}, "--shard is an app id"},
		{[]string{"--servers", server.URL, "--shard", "300"}, "0..255"},
		{[]string{"--servers", server.URL, "--segment", "bad tag"}, "A-Z a-z"},
		{[]string{"--servers", "ftp://x", "--segment", "t"}, "http://"},
		{[]string{"--nope"}, "flag provided but not defined"},
	} {
		code, out, errOut := runLeafid(c.args...)
		if code != 1 || out != "" || !strings.HasPrefix(errOut, "leafid: ") || !strings.Contains(errOut, c.want) ||
			strings.Count(errOut, "leafid:") != 1 {
			t.Errorf("%q: exit %d, stderr %q, stdout %q", c.args, code, errOut, out)
		}
	}
}
