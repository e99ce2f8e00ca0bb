-- The API's PostgreSQL role: it can connect to ratingdb's database and read its tables, and
-- nothing else (no INSERT, UPDATE, DELETE, TRUNCATE, CREATE, temporary tables). A psql script,
-- idempotent (docker-compose.yml's `roles` service runs it at every start, which also sets
-- the password anew). Run it as the role that runs the migrations, which owns the tables: the
-- default privileges below then cover the tables later migrations create.
--
--   psql -v ON_ERROR_STOP=1 -v reader=ratingdb_reader -v reader_password=SECRET \
--        -f docker/read-only-role.sql
\set ON_ERROR_STOP on

SELECT format('CREATE ROLE %I', :'reader')
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'reader') \gexec

ALTER ROLE :"reader" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION
    NOBYPASSRLS PASSWORD :'reader_password';
-- Every transaction read-only too: a second lock, should a privilege be granted by mistake.
ALTER ROLE :"reader" SET default_transaction_read_only = on;

-- The database is ratingdb's alone: nobody but its owner creates objects or temporary tables
-- (PUBLIC has both by default before PostgreSQL 15, and temporary tables still).
REVOKE CREATE, TEMPORARY ON DATABASE :"DBNAME" FROM PUBLIC;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT CONNECT ON DATABASE :"DBNAME" TO :"reader";
GRANT USAGE ON SCHEMA public TO :"reader";

-- Read the public tables, and only those: never the back office's (accounts, API tokens,
-- sessions, sign-in attempts and throttles, known devices, uploaded files, the audit log, previewed corrections,
-- publication previews). The list is
-- ratingdb.models.visibility.BACK_OFFICE_TABLES (a test keeps the two the same). Tables are
-- granted one by one as the migrations left them, with no default privilege: a table a later
-- migration adds is unreadable (the API fails loudly) until this script runs again, which
-- compose's `roles` service does after every `migrate`; it never leaks silently.
\set back_office_tables 'users,api_tokens,web_sessions,sign_in_attempts,submissions,audit_log,correction_previews,publication_previews,sign_in_throttles,known_devices,publication_modes'
ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE SELECT ON TABLES FROM :"reader";
SELECT format('REVOKE ALL ON TABLE %I FROM %I', tablename, :'reader')
FROM pg_tables
WHERE schemaname = 'public' AND tablename = ANY (string_to_array(:'back_office_tables', ','))
\gexec
SELECT format('GRANT SELECT ON TABLE %I TO %I', tablename, :'reader')
FROM pg_tables
WHERE schemaname = 'public' AND tablename <> ALL (string_to_array(:'back_office_tables', ','))
\gexec
