#!/bin/sh
# A PostgreSQL streaming replica's start: the first time (an empty data folder), a copy of the
# primary by pg_basebackup, which also writes the standby's settings (standby.signal, and
# primary_conninfo and primary_slot_name in postgresql.auto.conf); then the command given
# (`postgres`, or `pg_ctl start`), which runs it as a hot standby. Every later start finds the
# copy and only runs the command: the standby streams from where it stopped.
# (docker-compose.yml's `replica` service; the replica test, tests/replica/, runs it too.)
# Run it after replica-primary.sh, as the OS user that will run the standby, with:
#   PGDATA                                   the standby's data folder (empty or absent at first)
#   PGHOST, PGPORT, PGUSER, PGPASSWORD       the replication role's connection to the primary
#   REPLICATION_SLOT                         the slot replica-primary.sh created
set -eu
: "${PGDATA:?}" "${REPLICATION_SLOT:?}"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
    tries=0
    until pg_isready -q -d postgres; do
        tries=$((tries + 1))
        if [ "$tries" -ge 60 ]; then
            echo "replica-bootstrap: the primary ${PGHOST:-}:${PGPORT:-5432} does not answer" >&2
            exit 1
        fi
        sleep 1
    done
    pg_basebackup --pgdata="$PGDATA" --write-recovery-conf --wal-method=stream \
        --checkpoint=fast --slot="$REPLICATION_SLOT" --no-password
    # PostgreSQL refuses a data folder others can read (a new Docker volume is 1777).
    chmod 0700 "$PGDATA"
fi
exec "$@"
