#!/usr/bin/env bash
# supervisord's nginx program (config/supervisord.conf): first stop what an earlier nginx
# master of this run folder left behind when it was killed alone (kill -9, the OOM killer),
# then become nginx (exec: supervisord signals nginx's master itself, as before).
#
#   scripts/nginx-supervised.sh NGINX RUN_DIR
#
# A master killed alone leaves its workers, cache manager and cache loader running: they
# keep the listening socket, so every new master fails to bind ("Address already in use")
# and supervisord starts it again and again until it gives up, while the orphans serve on
# without a master (no reload, no cache manager, nothing to restart them). Its pid file
# names the dead master, and its processes are still in the process group it led: those
# are told to stop gracefully (SIGQUIT: they finish the requests in hand), and killed if
# they are still there after GRACE seconds.
set -euo pipefail

NGINX=$1
RUN=$2
GRACE=${NGINX_ORPHANS_GRACE:-10}

# The pids of the nginx processes in process group $1, but the leader's own.
group_members() {
    local stat rest pid comm pgrp
    for stat in /proc/[0-9]*/stat; do
        rest=$(cat "$stat" 2>/dev/null) || continue
        pid=${rest%% *}
        comm=${rest#*(}
        comm=${comm%%)*}
        rest=${rest##*) }
        read -r _ _ pgrp _ <<<"$rest"
        if [ "$pgrp" = "$1" ] && [ "$pid" != "$1" ] && [ "$comm" = nginx ]; then
            echo "$pid"
        fi
    done
}

old=$(cat "$RUN/nginx.pid" 2>/dev/null || true)
if [[ "$old" =~ ^[0-9]+$ ]] && [ ! -e "/proc/$old" ]; then
    left=$(group_members "$old")
    if [ -n "$left" ]; then
        echo "nginx-supervised: the last nginx master ($old) was killed alone; stopping the" \
            "processes it left holding the port:" $left >&2
        kill -QUIT $left 2>/dev/null || true
        for _ in $(seq $((GRACE * 10))); do
            left=$(group_members "$old")
            [ -z "$left" ] && break
            sleep 0.1
        done
        if [ -n "$left" ]; then
            echo "nginx-supervised: still running after ${GRACE} s, killed:" $left >&2
            kill -KILL $left 2>/dev/null || true
        fi
    fi
fi
exec "$NGINX" -p "$RUN" -c "$RUN/nginx.conf" -g "daemon off;"
