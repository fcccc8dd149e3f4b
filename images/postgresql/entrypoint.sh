#!/bin/sh
# Sets the superuser's password to POSTGRES_PASSWORD and creates POSTGRES_DB in single-user
# mode (no temporary server), then runs the command.
set -eu
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
db=${POSTGRES_DB:-postgres}
case "$POSTGRES_PASSWORD$db" in *"'"*|*'"'*) echo "quotes are not allowed in POSTGRES_PASSWORD or POSTGRES_DB" >&2; exit 2;; esac
{
  echo "ALTER ROLE postgres PASSWORD '$POSTGRES_PASSWORD'"
  [ "$db" = postgres ] || echo "CREATE DATABASE \"$db\""
} | postgres --single -D "$PGDATA" postgres >/dev/null
exec "$@"
