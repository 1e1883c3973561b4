// A real streaming replica of the test PostgreSQL for the tests: the code is shared with
// scripts/scale-out.mjs (scripts/pg-replica.mjs: pg_basebackup -R into a temporary folder, a second
// PostgreSQL on a free port with its own postgresql.conf and pg_hba.conf, run as the postgres OS user).

export { replicaUnavailable, startReplica, waitFor, type Replica } from '../../scripts/pg-replica.mjs';
