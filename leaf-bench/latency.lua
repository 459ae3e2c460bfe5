-- wrk script of http-bench.sh: after the run, prints the tail latencies wrk's --latency table
-- leaves out, in microseconds, one per line ("P99.9 <us>").
done = function(summary, latency, requests)
    for _, p in ipairs({ 99.9, 99.99 }) do
        io.write(string.format("P%g %d\n", p, latency:percentile(p)))
    end
end
