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
# (`make serve-workers`); it needs a broker.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
GUNICORN=${1:-$ROOT/.venv/bin/gunicorn}
BIN=$(cd "$(dirname "$GUNICORN")" && pwd)  # supervisord and celery beside gunicorn
GUNICORN=$BIN/$(basename "$GUNICORN")
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
WORKERS=${WORKERS:-4}
UPSTREAM_PORT=${UPSTREAM_PORT:-$((PORT + 1))}
UPSTREAM_GIVEN=${UPSTREAM:-}
UPSTREAM=${UPSTREAM:-127.0.0.1:$UPSTREAM_PORT}
WEB=${WEB:-true}
BEAT=${BEAT:-true}
for switch in WEB BEAT; do
    case ${!switch} in
        true | false) ;;
        *) echo "serve-cached: $switch=${!switch} is neither true nor false" >&2; exit 2 ;;
    esac
done
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
        echo "serve-cached: cannot listen for $1 on $2:$3: $why (another server, or a" \
            "serve-cached still running: $BIN/supervisorctl -c $RUN/supervisord.conf status);" \
            "stop it or choose another PORT (and UPSTREAM_PORT)" >&2
        exit 1
    fi
}
if [ "$WEB" = true ]; then
    check_port nginx "$HOST" "$PORT"
    if [ -z "$UPSTREAM_GIVEN" ]; then check_port gunicorn 127.0.0.1 "$UPSTREAM_PORT"; fi

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
    mkdir -p "$RUN"
    NGINX=nginx  # never started
fi

with_nginx=$WEB
with_gunicorn=$WEB
with_workers=false
if [ -n "$UPSTREAM_GIVEN" ]; then with_gunicorn=false; fi
if [ -n "$UPSTREAM_GIVEN" ]; then :
elif [ -n "${CELERY_BROKER_URL:-${REDIS_URL:-}}" ]; then with_workers=true; fi
with_beat=$with_workers
if [ "$BEAT" = false ]; then with_beat=false; fi
sed -e "s|@RUN@|$RUN|g" -e "s|@ROOT@|$ROOT|g" -e "s|@NGINX@|$NGINX|g" \
    -e "s|@GUNICORN@|$GUNICORN|g" -e "s|@CELERY@|$BIN/celery|g" \
    -e "s|@WORKERS@|$WORKERS|g" -e "s|@UPSTREAM@|$UPSTREAM|g" \
    -e "s|@GUNICORN_ACCESS_LOG@|${GUNICORN_ACCESS_LOG:--}|g" \
    -e "s|@CELERY_PROCESSES@|${CELERY_PROCESSES:-2}|g" \
    -e "s|@CELERY_CONCURRENCY@|${CELERY_CONCURRENCY:-$(nproc)}|g" \
    -e "s|@WITH_NGINX@|$with_nginx|g" -e "s|@WITH_GUNICORN@|$with_gunicorn|g" \
    -e "s|@WITH_WORKERS@|$with_workers|g" -e "s|@WITH_BEAT@|$with_beat|g" \
    "$ROOT/config/supervisord.conf" >"$RUN/supervisord.conf"

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
