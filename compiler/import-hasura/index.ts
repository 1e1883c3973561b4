/** Imports a Hasura CLI project (config.yaml, metadata in the v2 or v3 layout, migrations) into Kiln's metadata directory and migrations. */
export { importHasura, type ImportReport } from './import.js';
/** Bad input to the importer (no config.yaml, unreadable metadata, clashing migration versions). */
export { HasuraProjectError } from './config.js';
/** Reads migrations in the Hasura CLI's layouts (version folders, flat `<version>_<name>.up.sql` files) by database. */
export { readMigrations, readMigrationFolder, type Migration } from './migrations.js';
/** Renames `x-hasura-*` and `HASURA_GRAPHQL_*` in keys and strings of a JSON-like value (case kept), counting by kind. */
export { renameVendorWords, type RenameCounts, type RenameKind } from './rename.js';
