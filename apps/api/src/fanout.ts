import type { Database } from './db/database.js';

/**
 * How a change made by one process reaches every process (payment status, queue changes,
 * read-cache topics): subscribe to a channel. Writers always NOTIFY inside their transaction,
 * so a message exists only once its transaction committed. Two implementations, chosen once
 * in app.ts (decision 033): the database itself (LISTEN on PostgreSQL, in process on PGlite),
 * or Redis pub/sub fed by one relay process (redis/redis-fanout.ts).
 *
 * Same contract as Database.listen: an empty payload means "you may have missed messages:
 * re-read everything"; `onLost` is told when messages start being missed.
 */
export interface Fanout {
  listen: Database['listen'];
}
