#!/usr/bin/env bash
# Server instructions per call of transition.lua next to the source article's three-command script (issue 15.3),
# counted by valgrind's callgrind inside redis-server: the same total for the same binary and inputs whatever else
# the machine is doing, so a lever on the script can be priced on a busy machine, where redis-benchmark's calls/s
# (the bench's judged figure, BENCHMARKS.md) is noise. Kernel time (socket reads and writes) is not counted, so the
# ratio here is higher than the bench's CPU ratio; compare variants with each other, not with the 2x target.
#
# Usage: scripts/script-cost-callgrind.sh [REDIS_SERVER] [variant.lua ...]
#   REDIS_SERVER  a redis-server binary (default: the one on PATH; the product's embedded 6.2 is inside the
#                 embedded-redis jar in ~/.m2, file redis-server-6.2.6-v5-linux-amd64)
#   variant.lua   edited copies of transition.lua to price as well (same KEYS and ARGV)
# Needs Debian's valgrind and redis-tools (redis-cli, redis-benchmark, callgrind_control). ~2 minutes per script.
# Orders: 100,000 seeded in WAIT_PAY, each call WAIT_PAY -> PAID on a random one (a repeat answers -4), as the bench.
set -euo pipefail
cd "$(dirname "$0")/.."
server=${1:-$(command -v redis-server)}
[ $# -gt 0 ] && shift
calls=${CALLS:-10000}
port=${PORT:-17499}
lua=src/main/resources/lua
dir=$(mktemp -d)
trap 'redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true; sleep 1; rm -rf "$dir"' EXIT
cat > "$dir/article.lua" <<'LUA'
local s = redis.call('HGET', KEYS[1], 'status')
redis.call('HSET', KEYS[1], 'status', ARGV[1])
redis.call('HINCRBY', KEYS[1], 'version', 1)
return s
LUA
seed="for i = 0, 99999 do redis.call('HSET', string.format('sc:o:%012d', i), 'status', 1, 'version', 1, 'updateTime', 1, 'createTime', 1) end
redis.call('DEL', 'sc:x', 'sc:s', 'sc:q') return 1"
(cd "$dir" && valgrind --tool=callgrind --callgrind-out-file="$dir/cg.%p.out" "$server" --port "$port" --dir "$dir" \
    --appendonly yes --appendfsync everysec --save '' --maxmemory-policy noeviction >/dev/null 2>"$dir/valgrind.log") &
for _ in $(seq 1 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.3; done
cli() { redis-cli -p "$port" "$@"; }
cli EVAL "$(cat $lua/publish_rules.lua)" 1 sc:r 1 5,6 1 2,6 2 3,6 3 4 4 5 >/dev/null
echo "$("$server" --version | cut -d' ' -f1-3), $calls calls per script, instructions per call:"
for script in "$dir/article.lua" "$lua/transition.lua" "$@"; do
    sha=$(cli SCRIPT LOAD "$(cat "$script")")
    if [ "$script" = "$dir/article.lua" ]; then
        args=(EVALSHA "$sha" 1 sc:o:__rand_int__ 2)
    else
        args=(EVALSHA "$sha" 5 sc:o:__rand_int__ sc:r sc:x sc:q sc:s o1 2 $'bench\nbench\n')
    fi
    cli EVAL "$seed" 0 >/dev/null
    redis-benchmark -p "$port" -c 10 -P 16 -n 2000 -r 100000 -q "${args[@]}" >/dev/null   # warm-up
    cli EVAL "$seed" 0 >/dev/null
    callgrind_control -z >/dev/null 2>&1
    redis-benchmark -p "$port" -c 50 -P 16 -n "$calls" -r 100000 -q "${args[@]}" >/dev/null
    callgrind_control -d >/dev/null 2>&1
    sleep 1
    out=$(ls -t "$dir"/cg.*.out.* | head -1)
    total=$(grep -E '^(summary|totals):' "$out" | head -1 | awk '{print $2}')
    printf '  %-40s %8d\n' "$(basename "$script")" $((total / calls))
    rm -f "$out"
done
