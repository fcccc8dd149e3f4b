#!/bin/sh
# initdb with POSTGRES_PASSWORD (scram over TCP, trust on the private socket), creates
# POSTGRES_DB in single-user mode (no temporary server), then runs the command.
set -eu
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
pwfile=$(mktemp); printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
initdb -D "$PGDATA" -U postgres --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --no-locale --no-sync >/dev/null
rm -f "$pwfile"
echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
db=${POSTGRES_DB:-postgres}
case "$db" in *'"'*) echo "quotes are not allowed in POSTGRES_DB" >&2; exit 2;; esac
[ "$db" = postgres ] || echo "CREATE DATABASE \"$db\"" | postgres --single -D "$PGDATA" postgres >/dev/null
exec "$@"
