import type { Config } from '../config.js';
import { LIMITS, type LimitDeclaration } from './declarations.js';

/** The table of limits in docs/configuration.md sits between these two lines. */
export const TABLE_BEGIN =
  '<!-- limits table: generated from apps/api/src/limits/declarations.ts -->';
export const TABLE_END = '<!-- end of limits table -->';

function duration(ms: number): string {
  const units: [number, string][] = [
    [24 * 60 * 60_000, 'day'],
    [60 * 60_000, 'hour'],
    [60_000, 'minute'],
  ];
  for (const [size, name] of units) {
    if (ms % size === 0) {
      const n = ms / size;
      return n === 1 ? `1 ${name}` : `${n} ${name}s`;
    }
  }
  return `${ms} ms`;
}

const HOW: Record<LimitDeclaration['counting'], string> = {
  route: 'route (rate_counters, or Redis with `REDIS_URL`; memory on PGlite)',
  counter: 'rate_counters, or Redis with `REDIS_URL`',
  live: 'live rows',
  open: 'open sockets',
};

function row(name: string, d: LimitDeclaration, config: Config): string {
  const window = d.windowMs
    ? `${duration(d.windowMs(config))}${d.windowSetting ? ` (\`${d.windowSetting}\`)` : ''}`
    : 'at once';
  const max = `${d.max(config)}${d.setting ? ` (\`${d.setting}\`)` : ''}`;
  const answer = !d.refusal
    ? (d.spent ?? 'not stored')
    : d.refusal.status === 4429
      ? `socket closed 4429 \`${d.refusal.code}\``
      : `${d.refusal.status} \`${d.refusal.code}\``;
  return `| \`${name}\` | ${d.counts} | ${d.per} | ${window} | ${max} | ${answer} | ${HOW[d.counting]} |`;
}

/** The table of every limit, with the defaults of `config` (loadConfig({}) for docs/configuration.md). */
export function renderLimitsTable(config: Config): string {
  const declarations: [string, LimitDeclaration][] = Object.entries(LIMITS);
  return [
    TABLE_BEGIN,
    '| limit | counts | per | window (setting) | max (setting) | answer | counted in |',
    '|---|---|---|---|---|---|---|',
    ...declarations.map(([name, d]) => row(name, d, config)),
    TABLE_END,
  ].join('\n');
}

/** `text` with its table of limits replaced by `table`; null when it has none. */
export function withLimitsTable(text: string, table: string): string | null {
  const begin = text.indexOf(TABLE_BEGIN);
  const end = text.indexOf(TABLE_END);
  if (begin < 0 || end < begin) return null;
  return text.slice(0, begin) + table + text.slice(end + TABLE_END.length);
}
