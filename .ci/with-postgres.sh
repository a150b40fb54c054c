#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster: initdb in a temporary directory, the server
# on a Unix socket there (no TCP port to clash with), LISTKIT_PG_URL exported for the tests, and
# the cluster stopped and deleted afterwards. PostgreSQL refuses to run as root, so as root the
# server runs as the `postgres` user that Debian's package creates.
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/pg_ctl" ]; then
  echo "with-postgres: no PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql)" >&2
  exit 1
fi

dir=$(mktemp -d /tmp/listkit-pg.XXXXXX)
as_owner=()
if [ "$(id -u)" = 0 ]; then
  chown postgres: "$dir"
  as_owner=(runuser -u postgres --)
fi
port=54329

# The server user may not be allowed into the caller's directory (a root-owned checkout).
cd_run() { (cd "$dir" && "${as_owner[@]}" "$@"); }

stop() {
  cd_run "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

cd_run "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; exit 1; }
cd_run "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-c listen_addresses='' -k $dir -p $port -c fsync=off -c max_connections=50" start >/dev/null ||
  { cat "$dir/server.log" >&2; exit 1; }

export LISTKIT_PG_URL="postgresql://postgres@localhost/postgres?host=$dir&port=$port"
"$@"
