#!/usr/bin/env bash
# Run the suite in three lanes side by side, every test at least once:
# - on PostgreSQL + Redis, shown as it runs: the Django tests that use the database (the
#   fault drills apart), then the engine's exact-odds tests against seeded games (no
#   database);
# - the fault drills (tests/drills: real Celery workers, supervisord, worker hosts), on a
#   test database and a broker database of their own (PG_URL's server, database name
#   suffixed "_drills"; REDIS_URL's server, database 14), so that nothing the other lane
#   sends or flushes reaches them, with the other tests of real servers (SERVER_TESTS); then
#   the engine's other tests (no database). The drills spend most of their time waiting on
#   workers and leases, which is why they share a lane on a 2-core machine;
# - on the SQLite default that a first `make run` uses: the tests that never touch a
#   database, the browser tests (they read pages, not the database's dialect) and the
#   first-run tests (load_teams, simulate on eager Celery, the settings), which run on both
#   databases.
# The two other lanes are shown when all three are done. Exit non-zero if any lane failed.
# Used by `make test`.
#   scripts/test-passes.sh PYTHON PG_URL REDIS_URL
set -uo pipefail
# Cached bytecode: a machine that sets PYTHONDONTWRITEBYTECODE makes every process compile
# the project's modules again (and pytest rewrite every test module again): some 8 s a
# lane's start and 0.15 s every command a test runs (README's, the drills' workers...).
# __pycache__ is in .gitignore.
unset PYTHONDONTWRITEBYTECODE
PY=$1 PG_URL=$2 REDIS_URL_TEST=$3
SLOWEST=${TEST_SLOWEST:-5}  # each run lists its slowest tests: TEST_SLOWEST=40 make test
DRILLS_PG_URL="${PG_URL}_drills"
DRILLS_REDIS_URL="${REDIS_URL_TEST%/*}/14"
sqlite_log=$(mktemp -t vabg-sqlite-lane.XXXXXX)
drills_log=$(mktemp -t vabg-drills-lane.XXXXXX)
trap 'rm -f "$sqlite_log" "$drills_log"' EXIT
no_servers=(env -u DATABASE_URL -u CELERY_BROKER_URL -u REDIS_URL)

# The exact odds' own tests (20,000 seeded games a matchup) end the first lane; the coach's
# odds run with the engine's other tests in the second.
ODDS_TESTS="tests/simulator/vabg/test_odds.py"
"${no_servers[@]}" "$PY" -m pytest tests --ignore=tests/simulator \
    -m "not postgres and not redis" --database-tests=skip --durations="$SLOWEST" >"$sqlite_log" 2>&1 &
sqlite_pid=$!

# Tests of real servers started for the test (nginx's front cache, gunicorn's workers,
# leases timed out on the clock) spend much of their time waiting, as the drills do: they
# run with the drills, on the drills' databases.
SERVER_TESTS="tests/pages/test_front_cache.py tests/config/test_shared_cache.py
    tests/league/test_leases.py tests/config/test_health.py"
(
    # Browser drills included (a fan's challenge watched on real workers): they need the
    # workers, so they run nowhere else.
    # shellcheck disable=SC2086
    DATABASE_URL=$DRILLS_PG_URL CELERY_BROKER_URL=$DRILLS_REDIS_URL "$PY" -m pytest tests/drills \
        $SERVER_TESTS --database-tests=only --durations="$SLOWEST" || status=$?
    # shellcheck disable=SC2046
    "${no_servers[@]}" "$PY" -m pytest tests/simulator simulator \
        $(printf -- '--ignore=%s ' $ODDS_TESTS) --durations="$SLOWEST" || status=$?
    exit "${status:-0}"
) >"$drills_log" 2>&1 &
drills_pid=$!

# shellcheck disable=SC2046
DATABASE_URL=$PG_URL CELERY_BROKER_URL=$REDIS_URL_TEST "$PY" -m pytest tests \
    --ignore=tests/simulator --ignore=tests/drills $(printf -- '--ignore=%s ' $SERVER_TESTS) \
    -m "not browser" --database-tests=only --durations="$SLOWEST"
pg_status=$?
# shellcheck disable=SC2086
"${no_servers[@]}" "$PY" -m pytest $ODDS_TESTS --durations="$SLOWEST" || pg_status=$?

wait "$drills_pid"
drills_status=$?
wait "$sqlite_pid"
sqlite_status=$?
echo
echo "=== the fault drills (tests/drills) on PostgreSQL + Redis databases of their own, then the engine's other tests ==="
cat "$drills_log"
echo
echo "=== on the SQLite default: the tests without a database, the browser and first-run tests ==="
cat "$sqlite_log"
echo
echo "test-passes: PostgreSQL lane exit $pg_status, drills lane exit $drills_status," \
    "SQLite lane exit $sqlite_status"
[ "$pg_status" = 0 ] && [ "$drills_status" = 0 ] && [ "$sqlite_status" = 0 ]
