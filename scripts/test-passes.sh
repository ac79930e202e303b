#!/usr/bin/env bash
# Run the suite's two passes side by side (one core each), every test at least once:
# - on PostgreSQL + Redis: the Django tests that use the database (real Celery workers, the
#   fault drills), shown as it runs, then the engine's exact-odds tests (no database: they
#   balance the two cores);
# - on the other core, shown when both are done: the engine's tests, then on the SQLite
#   default that a first `make run` uses the tests that never touch a database, the
#   browser tests (they read pages, not the database's dialect) and the first-run tests
#   (load_teams, simulate on eager Celery, the settings), which run on both.
# Exit non-zero if either pass failed. Used by `make test`.
#   scripts/test-passes.sh PYTHON PG_URL REDIS_URL
set -uo pipefail
PY=$1 PG_URL=$2 REDIS_URL_TEST=$3
log=$(mktemp -t vabg-sqlite-pass.XXXXXX)
trap 'rm -f "$log"' EXIT

# The engine's exact-odds tests run on the PostgreSQL side's core once its pass is done; the
# rest of the engine's tests here. Every test still runs at least once.
ODDS_TESTS="tests/simulator/test_odds.py tests/simulator/test_coachodds.py"
(
    env -u DATABASE_URL -u CELERY_BROKER_URL -u REDIS_URL "$PY" -m pytest tests/simulator simulator \
        $(printf -- '--ignore=%s ' $ODDS_TESTS) --durations=5 || status=$?
    env -u DATABASE_URL -u CELERY_BROKER_URL -u REDIS_URL "$PY" -m pytest tests \
        --ignore=tests/simulator -m "not postgres and not redis" \
        --database-tests=skip --durations=5 || status=$?
    exit "${status:-0}"
) >"$log" 2>&1 &
sqlite_pid=$!

DATABASE_URL=$PG_URL CELERY_BROKER_URL=$REDIS_URL_TEST "$PY" -m pytest tests \
    --ignore=tests/simulator -m "not browser" --database-tests=only --durations=5
pg_status=$?
# shellcheck disable=SC2086
env -u DATABASE_URL -u CELERY_BROKER_URL -u REDIS_URL "$PY" -m pytest $ODDS_TESTS --durations=3 \
    || pg_status=$?

wait "$sqlite_pid"
sqlite_status=$?
echo
echo "=== the engine's other tests, then on the SQLite default the tests without a database, the browser and first-run tests ==="
cat "$log"
echo
echo "test-passes: PostgreSQL pass exit $pg_status, SQLite pass exit $sqlite_status"
[ "$pg_status" = 0 ] && [ "$sqlite_status" = 0 ]
