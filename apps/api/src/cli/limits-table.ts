import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.js';
import { renderLimitsTable, withLimitsTable } from '../limits/limits-table.js';

// Rewrites the README's table of limits from the declarations (limits-table.test.ts fails
// until it is run after a limit changed).
const readme = fileURLToPath(new URL('../../../../README.md', import.meta.url));
const updated = withLimitsTable(readFileSync(readme, 'utf8'), renderLimitsTable(loadConfig({})));
if (updated === null) throw new Error('README.md has no table of limits to replace');
writeFileSync(readme, updated);
