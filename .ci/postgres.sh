# A PostgreSQL server for the tests, sourced by .ci/run: `ensure_postgres` exports
# TYSYACHA_TEST_DATABASE_URL (a role that may create databases: each test makes its own) or
# fails. In order:
#   1. TYSYACHA_TEST_DATABASE_URL already set: used as it is (the tests fail if it does not
#      answer, they never skip);
#   2. a server already listening on 127.0.0.1:${PGPORT:-5432} that lets the `postgres` role
#      in (trust, or PGPASSWORD from the environment);
#   3. a throwaway cluster from the machine's PostgreSQL packages (apt-get installs them when
#      missing), initdb'ed as the `postgres` user when run as root, on a free loopback port,
#      stopped and removed when the calling shell exits.
# Nothing found and nothing startable: it returns non-zero, so .ci/run fails.

_pg_bin() {
    # The newest installed version's binaries (Debian keeps them off PATH).
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$dir" ] && command -v initdb >/dev/null 2>&1; then
        dir=$(dirname "$(command -v initdb)")
    fi
    printf '%s' "$dir"
}

_pg_install() {
    if [ "$(id -u)" -ne 0 ]; then
        echo "ci: no PostgreSQL binaries and not root: cannot apt-get install postgresql" >&2
        return 1
    fi
    echo "ci: installing PostgreSQL with apt-get" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
}

_pg_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

_pg_as_owner() {
    # initdb and the server refuse to run as root.
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

_pg_stop() {
    if [ -n "${_PG_DATA:-}" ] && [ -d "$_PG_DATA" ]; then
        _pg_as_owner "$_PG_BIN/pg_ctl" -D "$_PG_DATA/data" -m immediate -w stop >/dev/null 2>&1 || true
        rm -rf "$_PG_DATA"
    fi
}

ensure_postgres() {
    if [ -n "${TYSYACHA_TEST_DATABASE_URL:-}" ]; then
        echo "ci: PostgreSQL from TYSYACHA_TEST_DATABASE_URL" >&2
        export TYSYACHA_TEST_DATABASE_URL
        return 0
    fi
    _PG_BIN=$(_pg_bin)
    local port=${PGPORT:-5432}
    if [ -n "$_PG_BIN" ] && "$_PG_BIN/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres \
            -w -Atqc 'SELECT 1' >/dev/null 2>&1; then
        echo "ci: PostgreSQL already listening on 127.0.0.1:$port" >&2
        if [ -n "${PGPASSWORD:-}" ]; then
            export TYSYACHA_TEST_DATABASE_URL="postgresql://postgres:${PGPASSWORD}@127.0.0.1:$port/postgres"
        else
            export TYSYACHA_TEST_DATABASE_URL="postgresql://postgres@127.0.0.1:$port/postgres"
        fi
        return 0
    fi
    if [ -z "$_PG_BIN" ]; then
        _pg_install || return 1
        _PG_BIN=$(_pg_bin)
        [ -n "$_PG_BIN" ] || { echo "ci: apt-get gave no PostgreSQL binaries" >&2; return 1; }
    fi
    if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
        useradd --system --home-dir /var/lib/postgresql postgres || return 1
    fi
    _PG_DATA=$(mktemp -d /tmp/tysyacha-ci-pg.XXXXXX)
    trap _pg_stop EXIT
    if [ "$(id -u)" -eq 0 ]; then
        chown postgres "$_PG_DATA"
    fi
    port=$(_pg_free_port)
    # A throwaway cluster: no fsync (nothing here must survive a power cut), trust on loopback.
    _pg_as_owner "$_PG_BIN/initdb" -D "$_PG_DATA/data" -U postgres -A trust -E UTF8 \
        --no-sync >"$_PG_DATA/initdb.log" 2>&1 \
        || { cat "$_PG_DATA/initdb.log" >&2; return 1; }
    _pg_as_owner "$_PG_BIN/pg_ctl" -D "$_PG_DATA/data" -l "$_PG_DATA/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $_PG_DATA -c fsync=off \
            -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
        start >/dev/null \
        || { cat "$_PG_DATA/server.log" >&2; return 1; }
    echo "ci: started a throwaway PostgreSQL ($("$_PG_BIN/postgres" --version)) on 127.0.0.1:$port" >&2
    export TYSYACHA_TEST_DATABASE_URL="postgresql://postgres@127.0.0.1:$port/postgres"
}
