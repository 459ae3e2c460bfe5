// Command leafid prints IDs from Leaf servers, one a line:
//
//	leafid --servers URL[,URL...] (--segment TAG | --snowflake KEY | --shard APP [--gate-pass P] | --format NAME) [--count N]
//
// It takes batches of exactly what it prints (the first min(count, 1000), no prefetch): a command
// takes no number it does not print. Exit 1 with "leafid: <problem>" on stderr.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	leafid "github.com/leafid/leaf/clients/go"
)

const usage = `usage: leafid --servers URL[,URL...] (--segment TAG | --snowflake KEY | --shard APP [--gate-pass P] | --format NAME) [--count N]

IDs from Leaf servers, one a line; the servers are asked in order.`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fail := func(problem string) int {
		fmt.Fprintf(stderr, "leafid: %s\n", strings.TrimPrefix(problem, "leafid: "))
		return 1
	}
	flags := flag.NewFlagSet("leafid", flag.ContinueOnError)
	flags.SetOutput(io.Discard) // the problem is written once, our way
	servers := flags.String("servers", "", "URL[,URL...], asked in order")
	segment := flags.String("segment", "", "a segment tag")
	snowflake := flags.String("snowflake", "", "a snowflake key")
	shard := flags.String("shard", "", "a shard-mode app id, 0..255")
	format := flags.String("format", "", "a format name")
	gatePass := flags.String("gate-pass", "", "the gate pass of --shard (none: any shard)")
	count := flags.String("count", "1", "how many, at least 1")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, usage)
			return 0
		}
		return fail(err.Error())
	}
	given := map[string]bool{}
	flags.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var modes []string
	for _, mode := range []string{"segment", "snowflake", "shard", "format"} {
		if given[mode] {
			modes = append(modes, "--"+mode)
		}
	}
	n, err := strconv.Atoi(*count)
	switch {
	case flags.NArg() > 0:
		return fail(fmt.Sprintf("unexpected argument %q", flags.Arg(0)))
	case *servers == "":
		return fail("--servers is required")
	case len(modes) != 1:
		return fail("one of --segment, --snowflake, --shard, --format is required, not " + strconv.Itoa(len(modes)))
	case err != nil || n < 1:
		return fail("--count is a whole number, at least 1: " + *count)
	case given["gate-pass"] && !given["shard"]:
		return fail("--gate-pass goes with --shard")
	case given["gate-pass"] && *gatePass == "":
		return fail("--gate-pass is not empty (leave it out for any shard)")
	}
	first := n
	if first > 1000 {
		first = 1000
	}
	// One batch of exactly --count up to 1000, then batches of no more than is still missing.
	client, err := leafid.New([]string{*servers}, leafid.WithFirstBatch(first), leafid.WithPrefetchThreshold(0),
		leafid.WithLogger(nil))
	if err != nil {
		return fail(err.Error())
	}
	defer client.Close()
	var lines []string
	if given["format"] {
		strs, err := client.Format(*format)
		if err != nil {
			return fail(err.Error())
		}
		lines, err = strs.NextStrings(ctx, n)
		if err != nil {
			return fail(err.Error())
		}
	} else {
		var buffer *leafid.Buffer
		switch {
		case given["segment"]:
			buffer, err = client.Segment(*segment)
		case given["snowflake"]:
			buffer, err = client.Snowflake(*snowflake)
		default:
			app, convErr := strconv.Atoi(*shard)
			if convErr != nil {
				return fail("--shard is an app id, 0..255: " + *shard)
			}
			buffer, err = client.Shard(app, *gatePass)
		}
		if err != nil {
			return fail(err.Error())
		}
		ids, err := buffer.NextN(ctx, n)
		if err != nil {
			return fail(err.Error())
		}
		lines = make([]string, len(ids))
		for i, id := range ids {
			lines[i] = strconv.FormatInt(id, 10)
		}
	}
	out := bufio.NewWriter(stdout)
	for _, line := range lines {
		out.WriteString(line)
		out.WriteByte('\n')
	}
	if err := out.Flush(); err != nil {
		return fail(err.Error())
	}
	return 0
}
