# Sourced by the scripts that run the project's release programs as background processes (bench and
# flood scripts). What it gives them:
#   build_release PRODUCT…          builds each product in release; sets BIN to where they are
#   start_work PREFIX               makes WORK, a temporary directory, and stops every process in
#                                   PIDS and removes WORK when the script exits (KEEP=1 keeps WORK)
#   stop_run                        stops the processes in PIDS now and forgets them
#   wait_for WHAT SECONDS COMMAND…  polls COMMAND every 0.1 s until it succeeds or time is up
# Messages start with the sourcing script's name.

SCRIPT_NAME="$(basename "$0" .sh)"
PIDS=()

build_release() {
    local product
    # One product per build: `swift build` keeps only the last of several --product options.
    for product in "$@"; do
        swift build -c release --product "$product" >&2
    done
    BIN="$(swift build -c release --show-bin-path)"
}

stop_run() {
    local pid
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    PIDS=()
}

start_work() {
    # Short: a Unix socket path inside it must fit in 107 bytes.
    WORK="$(mktemp -d "/tmp/$1-XXXXXX")"
    trap finish_work EXIT
    trap 'exit 130' INT TERM
}

finish_work() {
    stop_run
    if [ "${KEEP:-0}" = 1 ]; then echo "$SCRIPT_NAME: kept $WORK" >&2; else rm -rf "$WORK"; fi
}

wait_for() {
    local what="$1" limit="$2"
    shift 2
    local deadline=$((SECONDS + limit))
    until "$@"; do
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "$SCRIPT_NAME: timed out after ${limit} s waiting for $what" >&2
            return 1
        fi
        sleep 0.1
    done
}
