package leafid

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// formatServer answers strings O2026000001, O2026000002, … with the pattern given.
func formatServer(pattern string, next *int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n := countOf(r)
		first := atomic.AddInt64(next, n) - n
		values := make([]string, n)
		for i := range values {
			values[i] = fmt.Sprintf("O2026%06d", first+int64(i))
		}
		if pattern != "" {
			w.Header().Set("Leaf-Format", pattern)
		}
		writeLines(w, values)
	}
}

func TestFormatStrings(t *testing.T) {
	var next int64 = 1
	var asked requests
	server := fake(t, asked.record(formatServer("O{yyyy}{seq:6}", &next)))
	client, _ := New([]string{server.URL}, WithLogger(quiet))
	defer client.Close()
	orders, err := client.Format("o")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := orders.NextString(ctx)
	if err != nil || first != "O2026000001" {
		t.Fatalf("%q %v", first, err)
	}
	more, err := orders.NextStrings(ctx, 100)
	if err != nil || len(more) != 100 || more[0] != "O2026000002" || more[99] != "O2026000101" {
		t.Fatalf("%v %v", more, err)
	}
	if counts := asked.asked(); counts[0] != 16 || counts[1] != 85 {
		t.Fatalf("batches %v: 16 first, then what the call lacks when it is more than the batch", counts)
	}
}

func TestBadFormatAnswersAreRefused(t *testing.T) {
	for name, c := range map[string]struct {
		handler http.HandlerFunc
		check   string
	}{
		"no pattern":      {formatServer("", new(int64)), "pattern"},
		"another pattern": {formatServer("X{seq:6}", new(int64)), "pattern"},
		"repeated": {func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Leaf-Format", "O{yyyy}{seq:6}")
			values := make([]string, countOf(r))
			for i := range values {
				values[i] = "O2026000001"
			}
			writeLines(w, values)
		}, "repeated"},
		"control characters": {func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Leaf-Format", "O{yyyy}{seq:6}")
			values := make([]string, countOf(r))
			for i := range values {
				values[i] = fmt.Sprintf("O\x1b[31m%d", i)
			}
			writeLines(w, values)
		}, "format"},
		"short": {func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Leaf-Format", "O{yyyy}{seq:6}")
			writeLines(w, []string{"O2026999999"})
		}, "count"},
	} {
		t.Run(name, func(t *testing.T) {
			var next int64 = 1
			good := fake(t, formatServer("O{yyyy}{seq:6}", &next))
			bad := fake(t, c.handler)
			// The good server first, so that its pattern is the one kept; then it is down.
			client, _ := New([]string{good.URL, bad.URL}, WithLogger(quiet), WithMaxWait(200*time.Millisecond))
			defer client.Close()
			orders, _ := client.Format("o")
			ctx := context.Background()
			if _, err := orders.NextStrings(ctx, 16); err != nil {
				t.Fatal(err)
			}
			client.servers.failed(client.servers.list[0], "test", time.Hour, "")
			if _, err := orders.NextStrings(ctx, 1); !errors.Is(err, ErrUnavailable) {
				t.Fatalf("a bad answer served: %v", err)
			}
			if client.BadAnswers()[BadAnswerKey{bad.URL, c.check}] == 0 {
				t.Fatalf("not counted as %q: %v", c.check, client.BadAnswers())
			}
		})
	}
}

// luhn is the check digit of digits, as the server's {check} of a decimal number computes it.
func luhn(digits string) byte {
	total, doubled := 0, true
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if doubled {
			d *= 2
		}
		total += d/10 + d%10
		doubled = !doubled
	}
	return byte('0' + (10-total%10)%10)
}

// checkedFormat answers O{yyyy}{seq:6}{check} strings from start, with a wrong check digit if asked.
func checkedFormat(start int64, wrong bool) http.HandlerFunc {
	next := start
	return func(w http.ResponseWriter, r *http.Request) {
		n := countOf(r)
		first := atomic.AddInt64(&next, n) - n
		values := make([]string, n)
		for i := range values {
			body := fmt.Sprintf("O2026%06d", first+int64(i))
			check := luhn(body[1:])
			if wrong {
				check = '0' + (check-'0'+1)%10
			}
			values[i] = body + string(check)
		}
		w.Header().Set("Leaf-Format", "O{yyyy}{seq:6}{check}")
		writeLines(w, values)
	}
}

func TestAWrongCheckCharacterIsRefused(t *testing.T) {
	wrong := fake(t, checkedFormat(500000, true))
	good := fake(t, checkedFormat(1, false))
	unreadable := fake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Leaf-Format", "O{nope}")
		writeLines(w, make([]string, countOf(r)))
	}))
	client, _ := New([]string{unreadable.URL, wrong.URL, good.URL}, WithLogger(quiet))
	defer client.Close()
	orders, _ := client.Format("o")
	strs, err := orders.NextStrings(context.Background(), 500)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range strs {
		if want := fmt.Sprintf("O2026%06d", i+1); s[:len(want)] != want {
			t.Fatalf("%q is not the good server's", s)
		}
	}
	bad := client.BadAnswers()
	if bad[BadAnswerKey{wrong.URL, "format"}] == 0 || bad[BadAnswerKey{unreadable.URL, "pattern"}] == 0 {
		t.Fatalf("not refused: %v", bad)
	}
}
