#!/usr/bin/env bash
# Make sure PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) answer, installing them
# from Debian's packages and starting them when they are absent; install Chromium and its
# driver for the browser tests and nginx for the front-cache test. Used by `make test` and CI.
set -euo pipefail

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
APT_UPDATED=""

apt_install() {
    if [ -z "$APT_UPDATED" ]; then $SUDO apt-get update -qq; APT_UPDATED=1; fi
    $SUDO apt-get install -y -qq "$@" >/dev/null
}

wait_for() {  # wait_for NAME COMMAND...: poll for up to 30 s
    local name=$1; shift
    for _ in $(seq 60); do
        if "$@" >/dev/null 2>&1; then return 0; fi
        sleep 0.5
    done
    echo "services.sh: $name did not come up" >&2
    return 1
}

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432; }
redis_up() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = "PONG" ]; }

# --- PostgreSQL -------------------------------------------------------------------------------
if ! command -v pg_isready >/dev/null || ! pg_up; then
    fresh=""
    if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
        echo "services.sh: installing PostgreSQL"
        apt_install postgresql
        fresh=1
    fi
    version=$(ls /etc/postgresql | sort -V | tail -1)
    if [ -n "$fresh" ]; then
        # Local trust over TCP for the test user, as on the development machines.
        hba=/etc/postgresql/$version/main/pg_hba.conf
        $SUDO sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
    fi
    echo "services.sh: starting PostgreSQL $version"
    $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    wait_for PostgreSQL pg_up
fi
# The test database named in DATABASE_URL; Django creates its own test_ copy beside it.
if ! psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='test'" | grep -q 1; then
    createdb -h 127.0.0.1 -U postgres test
fi

# --- Redis ------------------------------------------------------------------------------------
if ! command -v redis-cli >/dev/null || ! redis_up; then
    if ! command -v redis-server >/dev/null; then
        echo "services.sh: installing Redis"
        apt_install redis-server
    fi
    echo "services.sh: starting Redis"
    $SUDO mkdir -p /var/lib/redis /var/log/redis
    $SUDO redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
        --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
    wait_for Redis redis_up
fi
# --- Chromium for the browser tests ------------------------------------------------------------
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    echo "services.sh: installing Chromium and ChromeDriver (browser tests)"
    apt_install chromium chromium-driver
fi
# --- nginx for the front-cache test (make serve-cached) ----------------------------------------
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    echo "services.sh: installing nginx (the front cache of make serve-cached)"
    apt_install nginx-light
fi
# --- socat and iproute2 for the two-host drill (socat also for the PostgreSQL restart drill) ---
if ! command -v socat >/dev/null || { ! command -v ip >/dev/null && [ ! -x /usr/sbin/ip ]; }; then
    echo "services.sh: installing socat and iproute2 (the two-host and PostgreSQL restart drills)"
    apt_install socat iproute2
fi
echo "services.sh: PostgreSQL and Redis are up, Chromium, nginx and socat are installed"
