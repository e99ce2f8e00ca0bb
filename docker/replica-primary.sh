#!/bin/sh
# The primary's side of a PostgreSQL streaming replica, idempotent (docker-compose.yml's
# `replication` service runs it at every start of the `replica` profile; the replica test,
# tests/replica/, runs it on a scratch primary):
#   - pg_hba.conf lets the replication role stream from any address, with its password;
#   - the replication role exists, with that password;
#   - a physical replication slot keeps the WAL the replica has not received yet (drop it with
#     SELECT pg_drop_replication_slot('...') if the replica is removed for good: a slot nobody
#     reads keeps WAL on the primary's disk forever);
#   - the primary reloads its configuration.
# Run it as the OS user that owns the primary's data folder, with:
#   PGDATA                 the primary's data folder (for its pg_hba.conf)
#   PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE   a superuser's connection to the primary
#   REPLICATOR, REPLICATOR_PASSWORD, REPLICATION_SLOT
set -eu
: "${PGDATA:?}" "${REPLICATOR:?}" "${REPLICATOR_PASSWORD:?}" "${REPLICATION_SLOT:?}"

line="host replication $REPLICATOR all scram-sha-256"
if ! grep -qxF "$line" "$PGDATA/pg_hba.conf"; then
    printf '%s\n' "$line" >> "$PGDATA/pg_hba.conf"
fi

psql -X -q -v ON_ERROR_STOP=1 -v replicator="$REPLICATOR" \
    -v replicator_password="$REPLICATOR_PASSWORD" -v slot="$REPLICATION_SLOT" <<'SQL'
\o /dev/null
SELECT format('CREATE ROLE %I', :'replicator')
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'replicator') \gexec
ALTER ROLE :"replicator" WITH LOGIN REPLICATION NOSUPERUSER NOCREATEDB NOCREATEROLE
    PASSWORD :'replicator_password';
SELECT pg_create_physical_replication_slot(:'slot')
WHERE NOT EXISTS (SELECT FROM pg_replication_slots WHERE slot_name = :'slot');
SELECT pg_reload_conf();
SQL
