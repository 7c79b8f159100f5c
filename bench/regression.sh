#!/usr/bin/env bash
# regression.sh OLD_CHECKOUT NEW_CHECKOUT: webhook intake of two built checkouts side by side, as
# ../shared/tools/perf-ab/perf-ab.sh runs it (start:prod, ROLE=api, a fresh database each, SMTP off,
# wrk with the 2 KB body, alternated A B A B), reporting besides req/s and p99 what each request
# costs, which a busy machine changes far less: CPU of the server's processes (of it in the kernel) and of its Postgres
# backends per request, and statements and round trips to Postgres per request
# (bench/pg-round-trips.cjs, preloaded into both servers). CONNS (default 64), REPS (default 3),
# DUR (default 15 s), WARM (default 5 s), PORT_BASE (3211) and PORT_NEXT (the next), REDIS_DB_BASE (13, and the next); SERVER_NODE_OPTIONS is added to both servers' NODE_OPTIONS
# (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": written when the script stops them). One line per run, then "RESULT {json}" with the medians.
# WORKER=1 starts beside each server a worker process of its build (ROLE=worker, same database and Redis; WORKER_TASKSET,
# default unpinned), as production runs one: intake measured with the worker's passes (the search indexer, the report fold)
# following it. The worker's own CPU is not in the server's figures; its Postgres backends' CPU is in postgres_cpu_us.
# Each run then starts once both builds' processes are quiet (quiet below), so one build's worker catching up does not slow the other's run.
# Needs wrk, Postgres (local socket, user postgres) and Redis (6379).
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
OLD="$(cd "$1" && pwd)"; NEW="$(cd "$2" && pwd)"
# perf-ab's wrk script and body, in the shared/ folder beside the checkout (or beside the main checkout of a worktree).
AB="${PERF_AB_DIR:-$HERE/../../shared/tools/perf-ab}"
[ -f "$AB/post.lua" ] || AB="$(dirname "$(dirname "$(git -C "$HERE" rev-parse --path-format=absolute --git-common-dir)")")/shared/tools/perf-ab"
[ -f "$AB/post.lua" ] || { echo "no perf-ab folder (set PERF_AB_DIR)" >&2; exit 1; }
export BODY_FILE="$AB/body.json"
DUR=${DUR:-15}; WARM=${WARM:-5}; REPS=${REPS:-3}; CONNS=${CONNS:-64}
HZ=$(getconf CLK_TCK)
work=$(mktemp -d /tmp/regression.XXXXXX)
PIDS=(); DBS=()
su_psql() { su postgres -c "psql -h /var/run/postgresql -q $(printf '%q ' "$@")"; }
cleanup() { for p in "${PIDS[@]}"; do kill -TERM -- -"$p" 2>/dev/null; done
  for _ in $(seq 1 20); do sleep 0.5; for p in "${PIDS[@]}"; do kill -0 -- -"$p" 2>/dev/null && continue 2; done; break; done; for p in "${PIDS[@]}"; do kill -KILL -- -"$p" 2>/dev/null; done
  for d in "${DBS[@]}"; do su_psql -c "DROP DATABASE IF EXISTS $d WITH (FORCE)" >/dev/null 2>&1; done; rm -rf "$work"; }
trap cleanup EXIT
su_psql -tAc "select 1 from pg_roles where rolname='root'" | grep -q 1 || su_psql -c "CREATE ROLE root LOGIN CREATEDB"
start() { # DIR PORT REDISDB NAME: starts the server, writes its webhook URL to NAME.url, its database to NAME.db, its process group to NAME.pgid
  local dir=$1 port=$2 rdb=$3 name=$4 db="ab_$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')" opt; opt=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  su_psql -c "CREATE DATABASE $db OWNER root" >/dev/null; DBS+=("$db"); echo "$db" >"$work/$name.db"
  local envp=(DATABASE_URL="postgresql://root@localhost/$db?host=/var/run/postgresql" REDIS_URL=redis://127.0.0.1:6379/$rdb
    OPERATOR_TOKEN="$opt" TOKEN_ENCRYPTION_KEY="$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')" PORT=$port HOST=127.0.0.1
    LOG_LEVEL=warn ROLE=api NODE_ENV=production SMTP_PORT=0 RATE_LIMIT_PER_ADDRESS=1000000000 RATE_LIMIT_PER_CREDENTIAL=1000000000)
  (cd "$dir" && env "${envp[@]}" scripts/with-node.sh node dist/shared/database/migrate.js >"$work/migrate-$port.log" 2>&1) || { echo "migrate failed in $dir" >&2; tail -5 "$work/migrate-$port.log" >&2; return 1; }
  (cd "$dir" && exec env "${envp[@]}" PG_COUNT_FILE="$work/$name.pg" NODE_OPTIONS="--require $HERE/pg-round-trips.cjs ${SERVER_NODE_OPTIONS:-}" setsid ${TASKSET:-taskset -c 0} scripts/with-node.sh npm run start:prod >"$work/server-$port.log" 2>&1) &
  PIDS+=($!); echo $! >"$work/$name.pgid"
  if [ "${WORKER:-0}" = 1 ]; then
    (cd "$dir" && exec env "${envp[@]}" ROLE=worker PORT=$((port + 100)) setsid ${WORKER_TASKSET:-} scripts/with-node.sh npm run start:prod >"$work/worker-$port.log" 2>&1) &
    PIDS+=($!)
  fi
  for _ in $(seq 1 240); do curl -s -o /dev/null -m 1 "http://127.0.0.1:$port/healthz" && break; sleep 0.5; done
  curl -s -o /dev/null -m 1 "http://127.0.0.1:$port/healthz" || { echo "server in $dir did not start:" >&2; tail -5 "$work/server-$port.log" >&2; return 1; }
  BASE="http://127.0.0.1:$port" OP="$opt" node --input-type=module -e '
const B=process.env.BASE;
const call=async(m,p,tok,body)=>{const r=await fetch(B+p,{method:m,headers:{authorization:"Bearer "+tok,"content-type":"application/json"},body:body?JSON.stringify(body):undefined});if(r.status>=300)throw new Error(m+" "+p+" -> "+r.status+" "+await r.text());return r.json();};
const org=await call("POST","/api/operator/v1/organizations",process.env.OP,{name:"perf"});
const adm=org.admin_token;
const wf=(await call("POST","/api/admin/v1/workflows",adm,{name:"Perf intake",case_source:"direct",sensitive_data:false,statuses:[],attributes:{},automations:{}})).workflow;
await call("POST",`/api/admin/v1/workflows/${wf.id}/publish`,adm);
const hook=(await call("POST",`/api/admin/v1/workflows/${wf.id}/webhook`,adm)).webhook;
process.stdout.write(hook.url.replace(/^https?:\/\/[^/]+/,B));' >"$work/$name.url"
}
# A process's CPU ticks: user+system, or (system) in the kernel only; 0 once it has ended. The fields are counted after the
# command name's closing parenthesis: npm's process title has spaces in it.
stat_ticks() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk -v only="${2:-}" '{print only == "system" ? $13 : $12 + $13} END {if (NR == 0) print 0}'; }
# CPU ticks (user+system) of the server's process group plus its database's backends.
ticks() { # NAME -> "server postgres server-system"
  local s=0 p=0 k=0 pid
  for pid in $(ps -o pid= -g "$(cat "$work/$1.pgid")"); do s=$((s + $(stat_ticks "$pid"))); k=$((k + $(stat_ticks "$pid" system))); done
  for pid in $(su_psql -tAc "SELECT pid FROM pg_stat_activity WHERE datname = '$(cat "$work/$1.db")'"); do p=$((p + $(stat_ticks "$pid"))); done
  echo "$s $p $k"
}
pgcounts() { sleep 1.2; cat "$work/$1.pg" 2>/dev/null || echo '{"statements":0,"roundTrips":0}'; }
run() { # NAME -> one JSON line
  local url; url=$(cat "$work/$1.url")
  taskset -c 1 wrk -t1 -c"$CONNS" -d"${WARM}s" -s "$AB/post.lua" "$url" >/dev/null 2>&1
  local t0 q0 t1 q1 r; t0=$(ticks "$1"); q0=$(pgcounts "$1"); t0=$(ticks "$1")
  r=$(taskset -c 1 wrk -t1 -c"$CONNS" -d"${DUR}s" --timeout 10s -s "$AB/post.lua" "$url" 2>&1 | sed -n 's/^RESULT //p')
  t1=$(ticks "$1"); q1=$(pgcounts "$1")
  [ -n "$r" ] || { echo "c$CONNS $1: wrk gave no result (is the server still up? $(tail -1 "$work/server-"*.log | tr '\n' ' '))" >&2; return; }
  node -e '
const [r,t0,t1,q0,q1,hz]=process.argv.slice(1);const w=JSON.parse(r),a=t0.split(" ").map(Number),b=t1.split(" ").map(Number),c0=JSON.parse(q0),c1=JSON.parse(q1);
const n=w.requests,us=(d)=>Math.round(d*1e6/Number(hz)/n);
console.log(JSON.stringify({rps:Math.round(w.rps),p99_ms:+(w.p99_us/1000).toFixed(1),errors:w.err_status+w.err_timeout+w.err_connect+w.err_read+w.err_write,requests:n,
  server_cpu_us:us(b[0]-a[0]),server_system_us:us(b[2]-a[2]),postgres_cpu_us:us(b[1]-a[1]),statements:+((c1.statements-c0.statements)/n).toFixed(3),round_trips:+((c1.roundTrips-c0.roundTrips)/n).toFixed(3)}));' "$r" "$t0" "$t1" "$q0" "$q1" "$HZ"
}
P0=${PORT_BASE:-3211}; R0=${REDIS_DB_BASE:-13}
start "$OLD" "$P0" "$R0" old || exit 1
start "$NEW" "${PORT_NEXT:-$((P0 + 1))}" $((R0 + 1)) new || exit 1
# "pid ticks" of every started process (servers and workers) and both databases' backends.
pid_ticks() { local pid
  { for p in "${PIDS[@]}"; do ps -o pid= -g "$p"; done; su_psql -tAc "SELECT pid FROM pg_stat_activity WHERE datname IN ('${DBS[0]}', '${DBS[1]}')"; } |
    while read -r pid; do [ -n "$pid" ] && echo "$pid $(stat_ticks "$pid")"; done; }
# CPU ticks those processes used over a second (only those alive at both ends, so none ending makes it negative).
busy_ticks() { local a b; a=$(pid_ticks); sleep 1; b=$(pid_ticks)
  awk 'NR == FNR {before[$1] = $2; next} ($1 in before) {d += $2 - before[$1]} END {print d + 0}' <(echo "$a") <(echo "$b"); }
# With WORKER=1: before each run, wait until those processes use no more than when both builds were idle (measured once, before
# the first run) and a twentieth of a core (at most QUIET_MAX s, default 180): a worker still catching up on one build's run would
# slow the other's. It waits 3 s first: a worker gives way to intake for 1-2.6 s after a burst (IntakePressure), and only then catches up.
IDLE=""
quiet() { [ "${WORKER:-0}" = 1 ] || return 0; local t from
  if [ -z "$IDLE" ]; then IDLE=$(for _ in 1 2 3; do busy_ticks; done | sort -n | head -1); echo "idle: $IDLE ticks a second" >&2; fi
  from=$SECONDS; sleep 3
  while [ $((SECONDS - from)) -lt "${QUIET_MAX:-180}" ]; do t=$(busy_ticks); [ "$t" -le $((IDLE + HZ / 20)) ] && { echo "quiet after $((SECONDS - from)) s" >&2; return; }; done
  echo "not quiet after $((SECONDS - from)) s: measured all the same" >&2; }
for i in $(seq 1 "$REPS"); do
  for b in old new; do quiet; x=$(run $b); [ -n "$x" ] || continue; echo "c$CONNS $b run $i: $x"; echo "$x" >>"$work/$b.runs"; done
done
node -e '
const fs=require("fs");const rd=(f)=>fs.readFileSync(f,"utf8").trim().split("\n").map((l)=>JSON.parse(l));
const med=(v)=>{v=[...v].sort((x,y)=>x-y);return v[Math.floor(v.length/2)]};
const sum=(rs)=>Object.fromEntries(Object.keys(rs[0]).map((k)=>[k,med(rs.map((r)=>r[k]))]));
const o=sum(rd(process.argv[1])),n=sum(rd(process.argv[2]));
console.log(`c${process.argv[3]} old: ${JSON.stringify(o)}\nc${process.argv[3]} new: ${JSON.stringify(n)}`);
console.log("RESULT "+JSON.stringify({connections:+process.argv[3],old:o,new:n,rps_ratio:+(n.rps/o.rps).toFixed(2),p99_ratio:+(n.p99_ms/o.p99_ms).toFixed(2)}));' "$work/old.runs" "$work/new.runs" "$CONNS"
