package leafid

// The client against the real server (the jar LEAF_SERVER_JAR names): every mode, the errors, the
// leafid command, and 1,000,000 IDs through two servers on one MariaDB with one killed halfway.
// Skipped, saying why, without the jar (and without the mysql client for the last one).
//
//	LEAF_SERVER_JAR=$PWD/../../leaf-server/target/leaf-server.jar go test -run RealServer -v .

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var mysqlArgs = []string{"--protocol=tcp", "-h", "127.0.0.1", "-P", "3306", "-u", "root"}

func serverJar(t *testing.T) string {
	t.Helper()
	jar := os.Getenv("LEAF_SERVER_JAR")
	if jar == "" {
		t.Skip("LEAF_SERVER_JAR is not set: it names the server jar (leaf-server/target/leaf-server.jar) these tests start")
	}
	if info, err := os.Stat(jar); err != nil || info.IsDir() {
		t.Skipf("LEAF_SERVER_JAR=%s is not a file: build the server first", jar)
	}
	abs, _ := filepath.Abs(jar)
	return abs
}

func freePort(t *testing.T) int {
	t.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	return listener.Addr().(*net.TCPAddr).Port
}

// javaServer is the server jar in a directory of its own, on a free port, ready when its
// readiness answers 200.
type javaServer struct {
	url     string
	process *exec.Cmd
	done    chan struct{}
	log     string
}

func startServer(t *testing.T, jar string, args ...string) *javaServer {
	t.Helper()
	dir := t.TempDir()
	port := freePort(t)
	logFile, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	command := exec.Command("java", append([]string{"-Xmx256m", "-jar", jar,
		fmt.Sprintf("--server.port=%d", port), fmt.Sprintf("--leaf.snowflake.port=%d", port)}, args...)...)
	command.Dir = dir
	command.Stdout = logFile
	command.Stderr = logFile
	if err := command.Start(); err != nil {
		t.Fatal(err)
	}
	s := &javaServer{url: fmt.Sprintf("http://127.0.0.1:%d", port), process: command, done: make(chan struct{}),
		log: logFile.Name()}
	go func() { command.Wait(); logFile.Close(); close(s.done) }()
	t.Cleanup(s.stop) // before the directory is removed: cleanups run last first
	probe := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(120 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			t.Fatalf("the server stopped: %s", s.tail())
		default:
		}
		if answer, err := probe.Get(s.url + "/actuator/health/readiness"); err == nil {
			answer.Body.Close()
			if answer.StatusCode == 200 {
				return s
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
	s.stop()
	t.Fatalf("the server was not ready within 120 s: %s", s.tail())
	return nil
}

func (s *javaServer) tail() string {
	text, _ := os.ReadFile(s.log)
	if len(text) > 2000 {
		text = text[len(text)-2000:]
	}
	return string(text)
}

func (s *javaServer) kill() {
	s.process.Process.Signal(syscall.SIGKILL)
	<-s.done
}

func (s *javaServer) stop() {
	select {
	case <-s.done:
		return
	default:
	}
	s.process.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		s.kill()
	}
}

func increasingOnce(ids []int64) bool {
	for i := 1; i < len(ids); i++ {
		if ids[i] <= ids[i-1] {
			return false
		}
	}
	return true
}

func TestRealServer(t *testing.T) {
	jar := serverJar(t)
	server := startServer(t, jar, "--leaf.formats.o.pattern=O{yyyy}{seq:6}{check}", "--leaf.formats.o.reset=yearly",
		"--leaf.formats.o.tag=go-format", "--leaf.formats.o.zone=UTC",
		"--leaf.formats.b.pattern=B-{yy}{MM}-{seq36:5}{check}", "--leaf.formats.b.tag=go-format-36",
		"--leaf.formats.b.zone=UTC")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	t.Run("every mode", func(t *testing.T) {
		client, err := New([]string{server.url})
		if err != nil {
			t.Fatal(err)
		}
		defer client.Close()
		segment, _ := client.Segment("leaf-segment-test")
		ids, err := segment.NextN(ctx, 5000)
		if err != nil || !increasingOnce(ids) {
			t.Fatalf("segment: %v", err)
		}
		for i := 0; i < 20000; i++ { // through the buffer, batches as ranges, prefetched
			id, err := segment.Next(ctx)
			if err != nil || id <= ids[len(ids)-1] {
				t.Fatalf("segment: %d after %d, %v", id, ids[len(ids)-1], err)
			}
			ids = append(ids, id)
		}
		snowflake, _ := client.Snowflake("")
		flakes, err := snowflake.NextN(ctx, 3000)
		if err != nil || !increasingOnce(flakes) {
			t.Fatalf("snowflake: %v", err)
		}
		shard, _ := client.Shard(1, "alice@example.com")
		shardIDs, err := shard.NextN(ctx, 100)
		if err != nil {
			t.Fatalf("shard: %v", err)
		}
		sort.Slice(shardIDs, func(i, j int) bool { return shardIDs[i] < shardIDs[j] })
		for i, id := range shardIDs {
			if id&0xFF != 1 || (id>>8)&0x3F != 61 || (i > 0 && id == shardIDs[i-1]) {
				t.Fatalf("shard ID %d", id)
			}
		}
		anyShard, _ := client.Shard(1, "")
		if _, err := anyShard.NextN(ctx, 100); err != nil {
			t.Fatalf("shard, any: %v", err)
		}
		orders, _ := client.Format("o")
		strs, err := orders.NextStrings(ctx, 50)
		if err != nil {
			t.Fatalf("format: %v", err)
		}
		seen := map[string]bool{}
		for _, s := range strs {
			if seen[s] || !strings.HasPrefix(s, "O") {
				t.Fatalf("format string %q", s)
			}
			seen[s] = true
		}
		if one, err := orders.NextString(ctx); err != nil || !strings.HasPrefix(one, "O") || seen[one] {
			t.Fatalf("format: %q %v", one, err)
		}
		// Base 36 with a Luhn mod 36 check: every string the server gives passes the client's test.
		base36, _ := client.Format("b")
		if strs, err := base36.NextStrings(ctx, 2000); err != nil || len(strs) != 2000 {
			t.Fatalf("format b: %v", err)
		}
		if bad := client.BadAnswers(); len(bad) != 0 {
			t.Fatalf("bad answers from the real server: %v", bad)
		}
	})

	t.Run("typed errors", func(t *testing.T) {
		client, _ := New([]string{server.url})
		defer client.Close()
		unknown, _ := client.Segment("no-such-tag")
		_, err := unknown.Next(ctx)
		var refusal *RequestError
		if !errors.Is(err, ErrUnknownKey) || !errors.As(err, &refusal) || refusal.Type != "urn:leaf:problem:unknown-tag" {
			t.Fatalf("an unknown tag: %v", err)
		}
		if _, err := client.Segment("bad tag!"); !errors.Is(err, ErrInvalidArgument) {
			t.Fatalf("a bad tag: %v", err)
		}
		longPass, _ := client.Shard(1, strings.Repeat("x", 5000))
		if _, err := longPass.Next(ctx); !errors.Is(err, ErrInvalidInput) {
			t.Fatalf("a gate pass of 5000 characters: %v", err)
		}
	})

	t.Run("the leafid command", func(t *testing.T) {
		binary := filepath.Join(t.TempDir(), "leafid")
		build := exec.CommandContext(ctx, "go", "build", "-o", binary, "./cmd/leafid")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v %s", err, out)
		}
		var stdout, stderr strings.Builder
		command := exec.CommandContext(ctx, binary, "--servers", server.url, "--segment", "leaf-segment-test", "--count", "3")
		command.Stdout, command.Stderr = &stdout, &stderr
		if err := command.Run(); err != nil {
			t.Fatalf("%v: %s", err, stderr.String())
		}
		if lines := strings.Fields(stdout.String()); len(lines) != 3 {
			t.Fatalf("printed %q", stdout.String())
		}
		stderr.Reset()
		command = exec.CommandContext(ctx, binary, "--servers", server.url, "--segment", "no-such-tag")
		command.Stderr = &stderr
		err := command.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), "unknown-tag") {
			t.Fatalf("an unknown tag: %v, %q", err, stderr.String())
		}
	})
}

func TestRealServersOneKilledHalfway(t *testing.T) {
	jar := serverJar(t)
	if _, err := exec.LookPath("mysql"); err != nil {
		t.Skip("no mysql client: this test needs the local MariaDB on 127.0.0.1:3306")
	}
	database := fmt.Sprintf("leafid_go_%d", os.Getpid())
	mysql := func(stdin string, args ...string) {
		t.Helper()
		command := exec.Command("mysql", append(append([]string{}, mysqlArgs...), args...)...)
		if stdin != "" {
			script, err := os.Open(stdin)
			if err != nil {
				t.Fatal(err)
			}
			defer script.Close()
			command.Stdin = script
		}
		if out, err := command.CombinedOutput(); err != nil {
			t.Fatalf("mysql %v: %v %s", args, err, out)
		}
	}
	mysql("", "-e", fmt.Sprintf("DROP DATABASE IF EXISTS %s; CREATE DATABASE %s", database, database))
	t.Cleanup(func() {
		exec.Command("mysql", append(append([]string{}, mysqlArgs...), "-e", "DROP DATABASE IF EXISTS "+database)...).Run()
	})
	// The schema, with the tag leaf-segment-test the script inserts.
	mysql(filepath.Join("..", "..", "sql", "leaf_alloc.sql"), database)
	args := []string{"--leaf.jdbc.url=jdbc:mysql://127.0.0.1:3306/" + database, "--leaf.jdbc.username=root",
		"--leaf.snowflake.enable=false"}
	servers := []*javaServer{startServer(t, jar, args...), startServer(t, jar, args...)}

	var logMu sync.Mutex
	var failovers []string
	// Batches of at most 20,000 (not the 1,000,000 ranges allow): the 500,000 IDs after the kill
	// take many fetches, so the failover is under load, not after the last fetch.
	client, err := New([]string{servers[0].url, servers[1].url}, WithRequestTimeout(time.Second),
		WithMaxWait(10*time.Second), WithMaxRangeBatch(20000), WithLogger(func(line string) {
			logMu.Lock()
			failovers = append(failovers, line)
			logMu.Unlock()
		}))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	buffer, _ := client.Segment("leaf-segment-test")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var mu sync.Mutex
	var all []int64
	var failure error
	// Halfway, the goroutine that takes the 500,000th ID kills the preferred server while the
	// others wait at the gate (a prefetch may be under way on it), then all go on: the client
	// takes at most four calls more before the kill, so the failover happens with IDs to fetch.
	var killOnce sync.Once
	killed := make(chan struct{})
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 250; i++ {
				mu.Lock()
				halfway := len(all) >= 500000
				mu.Unlock()
				if halfway {
					killOnce.Do(func() {
						servers[0].kill()
						close(killed)
					})
					<-killed
				}
				ids, err := buffer.NextN(ctx, 1000)
				mu.Lock()
				if err != nil {
					failure = err
					mu.Unlock()
					return
				}
				all = append(all, ids...)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if failure != nil {
		t.Fatalf("a call failed: %v", failure)
	}
	if len(all) != 1000000 {
		t.Fatalf("%d IDs", len(all))
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	for i := 1; i < len(all); i++ {
		if all[i] == all[i-1] {
			t.Fatalf("ID %d handed out twice", all[i])
		}
	}
	logMu.Lock()
	defer logMu.Unlock()
	if len(failovers) == 0 || !strings.Contains(failovers[0], servers[0].url) {
		t.Fatalf("no failover from the killed server: %q", failovers)
	}
	t.Logf("1,000,000 IDs, none twice; %d failover lines, the first: %s; bad answers %v",
		len(failovers), failovers[0], client.BadAnswers())
}
