#!/usr/bin/env bash
# Run the suite's two passes side by side (one core each), each test where it belongs:
# - the Django tests on PostgreSQL + Redis (real workers, the drills, the browser), shown as
#   it runs;
# - on the other core, the engine's tests (no database: they run once, here) and the Django
#   tests again on the SQLite default that a first `make run` uses, shown when both are done.
# Exit non-zero if either pass failed. Used by `make test`.
#   scripts/test-passes.sh PYTHON PG_URL REDIS_URL
set -uo pipefail
PY=$1 PG_URL=$2 REDIS_URL_TEST=$3
log=$(mktemp -t vabg-sqlite-pass.XXXXXX)
trap 'rm -f "$log"' EXIT

env -u DATABASE_URL -u CELERY_BROKER_URL -u REDIS_URL "$PY" -m pytest \
    -m "not postgres and not redis and not browser" --durations=5 >"$log" 2>&1 &
sqlite_pid=$!

DATABASE_URL=$PG_URL CELERY_BROKER_URL=$REDIS_URL_TEST "$PY" -m pytest tests \
    --ignore=tests/simulator --durations=5
pg_status=$?

wait "$sqlite_pid"
sqlite_status=$?
echo
echo "=== the engine's tests and the Django tests again on the SQLite default ==="
cat "$log"
echo
echo "test-passes: PostgreSQL pass exit $pg_status, SQLite pass exit $sqlite_status"
[ "$pg_status" = 0 ] && [ "$sqlite_status" = 0 ]
