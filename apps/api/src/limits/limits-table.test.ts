import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { declarationOf, LIMITS, type LimitName } from './declarations.js';
import { renderLimitsTable, TABLE_BEGIN, TABLE_END } from './limits-table.js';

const readme = readFileSync(
  fileURLToPath(new URL('../../../../docs/configuration.md', import.meta.url)),
  'utf8',
);
const names = Object.keys(LIMITS) as LimitName[];
const defaults = loadConfig({});

describe('the table of limits', () => {
  it('in docs/configuration.md is the one the declarations make (npm run limits-table -w @qless/api)', () => {
    const begin = readme.indexOf(TABLE_BEGIN);
    const end = readme.indexOf(TABLE_END);
    expect(begin, 'docs/configuration.md has no table of limits').toBeGreaterThanOrEqual(0);
    expect(readme.slice(begin, end + TABLE_END.length)).toBe(renderLimitsTable(defaults));
  });

  it('names settings that do override the limit they are declared on', () => {
    for (const name of names) {
      const { setting, windowSetting, max, windowMs } = declarationOf(name);
      if (setting) {
        const raised = max(defaults) + 1;
        expect(max(loadConfig({ [setting]: String(raised) })), `${name}: ${setting}`).toBe(raised);
      }
      if (windowSetting) {
        const window = windowMs?.(loadConfig({ [windowSetting]: '7' }));
        expect(window, `${name}: ${windowSetting}`).toBe(7 * 60_000);
      }
    }
  });

  it('gives the same default as docs/configuration.md says for each setting', () => {
    for (const name of names) {
      const { setting, max } = declarationOf(name);
      if (!setting) continue;
      const documented = new RegExp(`^\\| \`${setting}\` \\| \`(\\d+)\` \\|`, 'm').exec(readme);
      expect(documented?.[1], `${name}: ${setting} in docs/configuration.md's settings`).toBe(
        String(max(defaults)),
      );
    }
  });

  it('keys every rate_counters limit apart', () => {
    const keys = names.map((n) => declarationOf(n).key).filter((k) => k !== undefined);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
