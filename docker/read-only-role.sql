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

-- Read the tables the migrations will create, and those there are (in this order, so that a
-- table created meanwhile is not missed).
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO :"reader";
GRANT SELECT ON ALL TABLES IN SCHEMA public TO :"reader";
