#!/bin/sh
# pg_ctl for pytest-postgresql when the tests run as root (CI and this sandbox do):
# PostgreSQL refuses to run as root, so hand the data, log and socket paths to the postgres user
# and run the real pg_ctl as that user. As any other user it is plain pg_ctl.
set -e
real=$(ls -d /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | sort -V | tail -n 1)
[ -n "$real" ] || real=$(command -v pg_ctl)
if [ "$(id -u)" != "0" ]; then exec "$real" "$@"; fi
grant() {  # let postgres reach $1: traverse every ancestor, own the path itself
  p=$1
  chown -R postgres "$p"
  d=$(dirname "$p")
  while [ "$d" != "/" ]; do chmod o+x "$d" 2>/dev/null || true; d=$(dirname "$d"); done
}
prev=""
for arg in "$@"; do
  case "$prev" in
    -D|--pgdata) mkdir -p "$arg"; chmod 700 "$arg"; grant "$arg";;
    -l|--log) touch "$arg"; grant "$arg";;
  esac
  case "$arg" in
    --pgdata=*) mkdir -p "${arg#--pgdata=}"; chmod 700 "${arg#--pgdata=}"; grant "${arg#--pgdata=}";;
  esac
  prev=$arg
done
cd /
exec runuser -u postgres -- "$real" "$@"
