#!/bin/sh
# Copies the data dir initialised at build time, sets root's password and creates
# MYSQL_DATABASE through --init-file (no temporary server), then runs mariadbd with "$@".
set -eu
: "${MYSQL_ROOT_PASSWORD:?MYSQL_ROOT_PASSWORD is required}"
case "$MYSQL_ROOT_PASSWORD$MYSQL_DATABASE" in *"'"*|*'`'*|*'\'*) echo "quotes are not allowed in the password or database name" >&2; exit 2;; esac
cp -a /var/lib/mysql-template/. /var/lib/mysql/
init=/run/mysqld/init.sql
{
  # install-db's password-less root@127.0.0.1, ::1 and <hostname> would match before root@'%'.
  echo "DELETE FROM mysql.global_priv WHERE User = '' OR (User = 'root' AND Host <> 'localhost');"
  echo "FLUSH PRIVILEGES;"
  echo "CREATE USER IF NOT EXISTS 'root'@'%' IDENTIFIED BY '$MYSQL_ROOT_PASSWORD';"
  echo "GRANT ALL PRIVILEGES ON *.* TO 'root'@'%' WITH GRANT OPTION;"
  echo "ALTER USER 'root'@'localhost' IDENTIFIED BY '$MYSQL_ROOT_PASSWORD';"
  [ -n "${MYSQL_DATABASE:-}" ] && echo "CREATE DATABASE IF NOT EXISTS \`$MYSQL_DATABASE\`;"
} > "$init"
chown mysql:mysql "$init"; chmod 600 "$init"
exec mariadbd --no-defaults --user=mysql --datadir=/var/lib/mysql --socket=/run/mysqld/mysqld.sock \
  --skip-name-resolve --init-file="$init" "$@"
