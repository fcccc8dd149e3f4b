#!/bin/sh
# Accepts the official mongo image's command line (`mongod --port N --bind_ip H`) and runs FerretDB.
set -eu
port=27017 host=127.0.0.1
[ "${1:-}" = mongod ] && shift
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port=$2; shift 2;;
    --bind_ip) host=$2; shift 2;;
    *) echo "ferretdb entrypoint: unsupported option $1" >&2; exit 2;;
  esac
done
exec ferretdb --handler=sqlite --sqlite-url=file:/data/db/ --state-dir=/state \
  --listen-addr="$host:$port" --debug-addr=- --telemetry=disable --log-level=info
