import type { FastifyBaseLogger } from 'fastify';

/** A logger that keeps every line, so a test can check what never reached the log. */
export function recordingLog(): { log: FastifyBaseLogger; text(): string } {
  const lines: unknown[] = [];
  const record = (...args: unknown[]) => {
    lines.push(args);
  };
  const log = {
    level: 'info',
    info: record,
    warn: record,
    error: record,
    fatal: record,
    debug: record,
    trace: record,
    silent: record,
    child: () => log,
  } as unknown as FastifyBaseLogger;
  return { log, text: () => JSON.stringify(lines) };
}
