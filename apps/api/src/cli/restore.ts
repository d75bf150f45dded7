/**
 * Restores a backup made by `npm run backup`, after checking its sums.
 * Usage: npm run restore -- --from <BACKUP_DIR/qless-…> [--into <postgres:// URL | DATA_DIR>] [--force]
 * The target must be empty: a new PostgreSQL database (createdb), or a new DATA_DIR.
 */
import { runRestoreCli } from '../backup/cli.js';

runRestoreCli(process.argv.slice(2)).then((code) => process.exit(code));
