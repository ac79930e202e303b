#!/usr/bin/env bash
# `make serve-cached`: the production set under supervisor (config/supervisord.conf): nginx's
# front cache (config/nginx.conf) before gunicorn and, when a broker is set, the Celery
# workers and beat. Each is started again whenever it exits, whatever killed it.
#
#   scripts/serve-cached.sh [GUNICORN]
#       HOST, PORT, WORKERS, UPSTREAM_PORT, RUN_DIR; CELERY_PROCESSES, CELERY_CONCURRENCY
#
# nginx listens on HOST:PORT (default 127.0.0.1:8000) and keeps what the application marks
# public (a played game's page, the hashed static files); gunicorn (WORKERS, default 4)
# listens on 127.0.0.1:UPSTREAM_PORT (default PORT+1) behind it, with NUM_PROXIES=1 so the
# API's throttle reads the client's address from the one proxy it trusts. With
# CELERY_BROKER_URL (or REDIS_URL) set, CELERY_PROCESSES workers (default 2) of
# CELERY_CONCURRENCY pool processes (default: the CPUs) and beat run beside them. nginx is
# installed from Debian's packages when it is missing. SIGTERM or Ctrl-C stops them all.
# With UPSTREAM=host:port set, only nginx starts, in front of the application already
# serving there (the front-cache test puts it before Django's live test server).
# BEAT=false leaves beat out (a second host of a league: one beat in all). WEB=false starts
# the workers (and beat, unless BEAT=false) alone, under the same supervision: a worker host
# (`make serve-workers`); it needs a broker, and the settings are checked before it starts.
# PREFLIGHT=only checks and exits (make runs it before the set-up's migrations): the
# switches and numbers, a set still running in the run folder (refused) or what one killed
# alone left running (stopped), the ports.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
GUNICORN=${1:-$ROOT/.venv/bin/gunicorn}
BIN=$(cd "$(dirname "$GUNICORN")" && pwd)  # supervisord and celery beside gunicorn
GUNICORN=$BIN/$(basename "$GUNICORN")
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
WORKERS=${WORKERS:-4}
CELERY_PROCESSES=${CELERY_PROCESSES:-2}
CELERY_CONCURRENCY=${CELERY_CONCURRENCY:-$(nproc)}
# Switches read as the settings read theirs: true/false, yes/no, on/off, 1/0, in any case.
WEB=${WEB:-true}
BEAT=${BEAT:-true}
for switch in WEB BEAT; do
    case ${!switch,,} in
        true | yes | on | 1) printf -v "$switch" true ;;
        false | no | off | 0) printf -v "$switch" false ;;
        *) echo "serve-cached: $switch=${!switch} is neither true nor false" >&2; exit 2 ;;
    esac
done
for number in PORT WORKERS CELERY_PROCESSES CELERY_CONCURRENCY ${UPSTREAM_PORT:+UPSTREAM_PORT}; do
    if ! [[ ${!number} =~ ^[0-9]+$ ]] || [ "${!number}" -lt 1 ]; then
        echo "serve-cached: $number=${!number} is not a whole number of 1 or more" >&2
        exit 2
    fi
done
UPSTREAM_PORT=${UPSTREAM_PORT:-$((PORT + 1))}
UPSTREAM_GIVEN=${UPSTREAM:-}
UPSTREAM=${UPSTREAM:-127.0.0.1:$UPSTREAM_PORT}
if [ "$WEB" = false ]; then
    RUN=${RUN_DIR:-$ROOT/.run/workers}
    if [ -z "${CELERY_BROKER_URL:-${REDIS_URL:-}}" ]; then
        echo "serve-cached: WEB=false starts the Celery workers alone, and they need a broker:" \
            "set CELERY_BROKER_URL (the web host's, e.g. redis://10.0.0.5:6379/0)" >&2
        exit 2
    fi
else
    RUN=${RUN_DIR:-$ROOT/.run/serve-$PORT}
fi

# A port another process listens on is refused here, naming it: under supervisord nginx
# would fail to bind, be started again and fail again for ever, the reason only in its
# error.log; gunicorn (--reuse-port) would even share the port with another gunicorn.
port_taken() {  # HOST PORT: print why it cannot be listened on, and succeed, if taken
    "$BIN/python" - "$1" "$2" <<'PY'
import socket, sys
s = socket.socket(socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as nginx and gunicorn bind
try:
    s.bind((sys.argv[1].strip("[]"), int(sys.argv[2])))
except OSError as error:
    print(error.strerror)
    sys.exit(0)
sys.exit(1)
PY
}
check_port() {  # WHAT HOST PORT
    local why
    if why=$(port_taken "$2" "$3"); then
        echo "serve-cached: cannot listen for $1 on $2:$3: $why (another server, or another" \
            "serve-cached set); stop it or choose another PORT (and UPSTREAM_PORT)" >&2
        exit 1
    fi
}

# Whether process $1 runs (an exited one nobody reaped, its parent gone, does not).
alive() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [ "${stat%% *}" != Z ]
}

# Whether process $1 runs with $2 in its command line (a pid file's process may be gone, or
# its number given to another program since).
runs_with() {
    [ -r "/proc/$1/cmdline" ] && tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -qF -- "$2"
}

# A set already running in this run folder is refused, naming how to stop it (its
# supervisord holds the folder's control socket: a second would fail later, cryptically).
# A supervisord killed alone (kill -9, the OOM killer) leaves its programs running with no
# one to restart them, holding the ports: each is found by its pid file and stopped as
# supervisord would (SIGTERM: a worker finishes its game, gunicorn its requests), its
# process group killed after 70 s. Then the old pid files go (a stale one's number may
# belong to another program after a reboot, and celery and gunicorn refuse to start on it).
clear_run_folder() {
    local pid file left=() running
    if [ -s "$RUN/supervisord.pid" ]; then
        pid=$(cat "$RUN/supervisord.pid")
        # A set told to shut down a moment ago (supervisorctl ... shutdown answers at once,
        # its supervisord then waits on its programs: a worker's game, up to 60 s) is waited
        # for, not refused: the upgrade's restart follows the shutdown straight away.
        if runs_with "$pid" "$RUN/supervisord.conf" &&
            [[ $("$BIN/supervisorctl" -c "$RUN/supervisord.conf" pid 2>&1) == *SHUTDOWN_STATE* ]]; then
            echo "serve-cached: the set in $RUN is stopping (supervisord, pid $pid):" \
                "waiting for it to end" >&2
            for _ in $(seq 900); do  # up to 90 s: its programs' own stop times and more
                alive "$pid" || break
                sleep 0.1
            done
        fi
        if runs_with "$pid" "$RUN/supervisord.conf"; then
            echo "serve-cached: a set is already running in $RUN (supervisord, pid $pid):" \
                "stop it first ($BIN/supervisorctl -c $RUN/supervisord.conf shutdown, or" \
                "SIGTERM to $pid), or give this one another RUN_DIR" >&2
            exit 1
        fi
    fi
    for file in "$RUN"/nginx.pid "$RUN"/gunicorn.pid "$RUN"/beat.pid "$RUN"/worker*.pid; do
        [ -s "$file" ] || continue
        pid=$(cat "$file")
        if [[ $pid =~ ^[0-9]+$ ]] && runs_with "$pid" "$RUN"; then left+=("$pid"); fi
    done
    if [ ${#left[@]} -gt 0 ]; then
        echo "serve-cached: the last set's supervisord was killed alone; stopping what it left" \
            "running in $RUN: ${left[*]}" >&2
        kill -TERM "${left[@]}" 2>/dev/null || true
        for _ in $(seq 700); do  # up to 70 s: a worker's game, gunicorn's requests
            running=false
            for pid in "${left[@]}"; do if alive "$pid"; then running=true; fi; done
            if [ "$running" = false ]; then break; fi
            sleep 0.1
        done
        for pid in "${left[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
    fi
    rm -f "$RUN"/*.pid
}

# A refused start (a port taken, a set running, bad settings) leaves no empty run folder
# behind: one made here is removed on the way out unless something was written into it
# (rmdir removes only an empty folder); supervisord's exec at the end drops the trap.
if [ ! -d "$RUN" ]; then trap 'rmdir "$RUN" 2>/dev/null || true' EXIT; fi
mkdir -p "$RUN"
clear_run_folder
if [ "$WEB" = true ]; then
    check_port nginx "$HOST" "$PORT"
    if [ -z "$UPSTREAM_GIVEN" ]; then check_port gunicorn 127.0.0.1 "$UPSTREAM_PORT"; fi
else
    # A worker host runs no set-up (make serve-cached's migrations load the settings and
    # refuse a bad one): the settings are read here once, so a missing SECRET_KEY stops the
    # start naming it, rather than every worker dying and restarting for an hour.
    if ! why=$(cd "$ROOT" && DJANGO_SETTINGS_MODULE=config.settings "$BIN/python" -c \
        "import django; django.setup()" 2>&1); then
        echo "serve-cached: the settings refuse to start: $(echo "$why" | tail -n 1)" >&2
        exit 2
    fi
fi
# A mistyped or stopped broker is said at the start, once (make's preflight, or a worker
# host's start), not only in the workers' logs and /healthz: the set still starts (a broker
# down for a while is waited for), but no game is played until the broker answers.
BROKER=${CELERY_BROKER_URL:-${REDIS_URL:-}}
if [ -n "$BROKER" ] && { [ "${PREFLIGHT:-}" = only ] || [ "$WEB" = false ]; }; then
    if ! why=$(cd "$ROOT" && "$BIN/python" -c '
import sys
from kombu import Connection
broker = Connection(sys.argv[1], connect_timeout=3)
try:
    broker.ensure_connection(max_retries=1, interval_start=0, interval_step=0)
except Exception as exc:
    said = str(exc).strip().splitlines()
    print(f"{broker.as_uri()} ({said[-1] if said else type(exc).__name__})")
    sys.exit(1)
' "$BROKER" 2>&1); then
        echo "serve-cached: warning: the broker $why does not answer: the set starts, but" \
            "no game is played until it does (check CELERY_BROKER_URL; /healthz says" \
            "\"broker\")" >&2
    fi
fi
if [ "${PREFLIGHT:-}" = only ]; then exit 0; fi

if [ "$WEB" = true ]; then
    if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
        echo "serve-cached: installing nginx (Debian's nginx-light)"
        SUDO=""
        if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
    fi
    NGINX=$(command -v nginx || echo /usr/sbin/nginx)

    rm -rf "$RUN/cache" "$RUN/temp"
    mkdir -p "$RUN/temp" "$RUN/cache"
    user_line=""
    if [ "$(id -u)" = 0 ]; then
        # nginx's workers never run as root: they write the cache as www-data.
        user_line="user www-data;"
        chown -R www-data "$RUN/cache" "$RUN/temp"
    fi
    {
        [ -n "$user_line" ] && echo "$user_line"
        sed -e "s|@RUN@|$RUN|g" -e "s|@UPSTREAM@|$UPSTREAM|g" \
            -e "s|@LISTEN@|$HOST:$PORT|g" -e "s|@ACCESS_LOG@|${ACCESS_LOG:-off}|g" "$ROOT/config/nginx.conf"
    } >"$RUN/nginx.conf"
    "$NGINX" -t -q -p "$RUN" -c "$RUN/nginx.conf"
else
    NGINX=nginx  # never started
fi

# A program this set does not run is left out of its supervisord.conf, with the comments
# above it: `supervisorctl status` lists what runs, not a STOPPED nginx, gunicorn and beat
# on a worker host that an operator would take for programs down.
only_programs_that_run() {
    awk '
        function flush() { if (!drop) printf "%s", section; section = ""; drop = 0 }
        /^[;#]/ || /^[[:space:]]*$/ { pending = pending $0 "\n"; next }
        /^\[/ { flush(); section = pending $0 "\n"; pending = ""; next }
        { section = section pending $0 "\n"; pending = "" }
        $0 == "autostart=false" { drop = 1 }
        END { flush(); printf "%s", pending }
    '
}

with_nginx=$WEB
with_gunicorn=$WEB
with_workers=false
if [ -n "$UPSTREAM_GIVEN" ]; then with_gunicorn=false; fi
if [ -n "$UPSTREAM_GIVEN" ]; then :
elif [ -n "${CELERY_BROKER_URL:-${REDIS_URL:-}}" ]; then with_workers=true; fi
with_beat=$with_workers
if [ "$BEAT" = false ]; then with_beat=false; fi
sed -e "s|@RUN@|$RUN|g" -e "s|@ROOT@|$ROOT|g" -e "s|@NGINX@|$NGINX|g" \
    -e "s|@SET@|$(basename "$RUN")|g" -e "s|@GUNICORN@|$GUNICORN|g" -e "s|@CELERY@|$BIN/celery|g" \
    -e "s|@WORKERS@|$WORKERS|g" -e "s|@UPSTREAM@|$UPSTREAM|g" \
    -e "s|@GUNICORN_ACCESS_LOG@|${GUNICORN_ACCESS_LOG:--}|g" \
    -e "s|@CELERY_PROCESSES@|${CELERY_PROCESSES:-2}|g" \
    -e "s|@CELERY_CONCURRENCY@|${CELERY_CONCURRENCY:-$(nproc)}|g" \
    -e "s|@WITH_NGINX@|$with_nginx|g" -e "s|@WITH_GUNICORN@|$with_gunicorn|g" \
    -e "s|@WITH_WORKERS@|$with_workers|g" -e "s|@WITH_BEAT@|$with_beat|g" \
    "$ROOT/config/supervisord.conf" | only_programs_that_run >"$RUN/supervisord.conf"

if [ "$WEB" = true ]; then
    echo "serve-cached: nginx on http://$HOST:$PORT/ in front of $UPSTREAM" \
        "(gunicorn: $with_gunicorn, Celery workers: $with_workers, beat: $with_beat);" \
        "$BIN/supervisorctl -c $RUN/supervisord.conf status"
else
    echo "serve-cached: the Celery workers alone (beat: $with_beat);" \
        "$BIN/supervisorctl -c $RUN/supervisord.conf status"
fi
cd "$ROOT"
NUM_PROXIES=${NUM_PROXIES:-1} exec "$BIN/supervisord" -c "$RUN/supervisord.conf"
