/**
 * Backs up the database and the uploaded files into BACKUP_DIR/qless-<UTC time>/.
 * Usage: npm run backup [-- --prune [--keep-daily 14] [--keep-weekly 8]]
 * On the embedded database (no DATABASE_URL), stop the server first: stop → backup → start.
 */
import { runBackupCli } from '../backup/cli.js';

runBackupCli(process.argv.slice(2)).then((code) => process.exit(code));
