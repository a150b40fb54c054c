#!/usr/bin/env bash
# Runs a command with a throwaway MariaDB server: a data directory in a temporary directory, the
# server on a Unix socket there (no TCP port to clash with), LISTKIT_MARIADB_URL exported for the
# tests, and the server stopped and the directory deleted afterwards. mariadbd will not run as
# root unless told to, so as root the server runs as the `mysql` user Debian's package creates.
set -euo pipefail

server=$(command -v mariadbd || ls /usr/sbin/mariadbd 2>/dev/null || true)
install_db=$(command -v mariadb-install-db || true)
if [ -z "$server" ] || [ -z "$install_db" ]; then
  echo "with-mariadb: no MariaDB server (apt-get install mariadb-server)" >&2
  exit 1
fi

dir=$(mktemp -d /tmp/listkit-mariadb.XXXXXX)
as_user=()
if [ "$(id -u)" = 0 ]; then
  chown mysql: "$dir"
  as_user=(--user=mysql)
fi
chmod 755 "$dir"
socket="$dir/mariadb.sock"

pid=""
stop() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    # Up to 30 s for a clean shutdown, then no more waiting.
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -rf "$dir"
}
trap stop EXIT

# root@localhost with an empty password (no unix_socket plugin): the tests connect as root from
# whatever OS user runs them.
"$install_db" --no-defaults "${as_user[@]}" --datadir="$dir/data" \
  --auth-root-authentication-method=normal --skip-test-db >"$dir/install.log" 2>&1 ||
  { cat "$dir/install.log" >&2; exit 1; }

# Small buffers and no durability: a test server on a busy 2-core machine.
"$server" --no-defaults "${as_user[@]}" --datadir="$dir/data" --socket="$socket" \
  --skip-networking --pid-file="$dir/mariadb.pid" --log-error="$dir/server.log" \
  --innodb-buffer-pool-size=128M --innodb-log-file-size=48M --innodb-flush-log-at-trx-commit=0 \
  --skip-log-bin \
  --max-connections=50 &
pid=$!

for _ in $(seq 1 600); do
  if [ -S "$socket" ] && mariadb --no-defaults -uroot --socket="$socket" -e 'SELECT 1' >/dev/null 2>&1; then
    break
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    cat "$dir/server.log" >&2
    exit 1
  fi
  sleep 0.1
done
mariadb --no-defaults -uroot --socket="$socket" -e 'CREATE DATABASE IF NOT EXISTS listkit' ||
  { cat "$dir/server.log" >&2; exit 1; }

export LISTKIT_MARIADB_URL="mysql://root@localhost/listkit?socketPath=$socket"
"$@"
