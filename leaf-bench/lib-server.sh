# The server's start and stop, shared by the benchmark scripts that run one (sourced, not run):
#   free_port                       a free port on 127.0.0.1
#   await_ready URL PID LOG [SECS]  waits until URL/actuator/health/readiness answers 200 (default
#                                   60 s); fails, with LOG's tail, when PID exits or time runs out
#   stop_process PID                SIGTERM, up to 15 s for the process to end, then SIGKILL
# The caller defines fail MESSAGE (prints and exits).

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

await_ready() {
    local url="$1" pid="$2" server_log="$3" seconds="${4:-60}"
    for _ in $(seq 1 $((seconds * 10))); do
        kill -0 "$pid" 2>/dev/null || { tail -n 30 "$server_log" >&2; fail "the server exited during start-up"; }
        if [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url/actuator/health/readiness" || true)" = "200" ]; then
            return 0
        fi
        sleep 0.1
    done
    tail -n 30 "$server_log" >&2
    fail "the server was not ready within $seconds s"
}

stop_process() {
    local pid="$1"
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
}
