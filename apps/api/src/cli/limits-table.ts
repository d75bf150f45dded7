import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.js';
import { renderLimitsTable, withLimitsTable } from '../limits/limits-table.js';

// Rewrites the table of limits in docs/configuration.md from the declarations (limits-table.test.ts fails
// until it is run after a limit changed).
const readme = fileURLToPath(new URL('../../../../docs/configuration.md', import.meta.url));
const updated = withLimitsTable(readFileSync(readme, 'utf8'), renderLimitsTable(loadConfig({})));
if (updated === null) throw new Error('docs/configuration.md has no table of limits to replace');
writeFileSync(readme, updated);
