#!/usr/bin/env bash
# `make serve-cached`: gunicorn behind nginx's front cache (config/nginx.conf).
#
#   scripts/serve-cached.sh [GUNICORN]      # HOST, PORT, WORKERS, UPSTREAM_PORT, RUN_DIR
#
# nginx listens on HOST:PORT (default 127.0.0.1:8000) and keeps what the application marks
# public (a played game's page, the hashed static files); gunicorn (WORKERS, default 4)
# listens on 127.0.0.1:UPSTREAM_PORT (default PORT+1) behind it, with NUM_PROXIES=1 so the
# API's throttle reads the client's address from the one proxy it trusts. nginx is
# installed from Debian's packages when it is missing. Both stop together (Ctrl-C, SIGTERM).
# With UPSTREAM=host:port set, only nginx starts, in front of the application already
# serving there (the front-cache test puts it before Django's live test server).
set -euo pipefail

GUNICORN=${1:-.venv/bin/gunicorn}
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
WORKERS=${WORKERS:-4}
UPSTREAM_PORT=${UPSTREAM_PORT:-$((PORT + 1))}
UPSTREAM_GIVEN=${UPSTREAM:-}
UPSTREAM=${UPSTREAM:-127.0.0.1:$UPSTREAM_PORT}
RUN=${RUN_DIR:-$PWD/.run/nginx-$PORT}

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
        -e "s|@LISTEN@|$HOST:$PORT|g" -e "s|@ACCESS_LOG@|${ACCESS_LOG:-off}|g" config/nginx.conf
} >"$RUN/nginx.conf"
"$NGINX" -t -q -p "$RUN" -c "$RUN/nginx.conf"

pids=()
stop() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap stop EXIT INT TERM
if [ -z "$UPSTREAM_GIVEN" ]; then
    NUM_PROXIES=${NUM_PROXIES:-1} "$GUNICORN" config.wsgi --workers "$WORKERS" \
        --bind "$UPSTREAM" --access-logfile "${GUNICORN_ACCESS_LOG:--}" &
    pids+=($!)
fi
"$NGINX" -p "$RUN" -c "$RUN/nginx.conf" -g "daemon off;" &
pids+=($!)
echo "serve-cached: nginx on http://$HOST:$PORT/ in front of $UPSTREAM"
wait -n "${pids[@]}"
