import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResolvedConfig } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { buildStamp } from './build-stamp';

type Hook = (this: unknown, ...args: unknown[]) => unknown;
const call = (hook: unknown, ...args: unknown[]) => (hook as Hook).call({}, ...args);

const original = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = original;
});

function resolved(root: string, isProduction: boolean, mode = 'production'): ResolvedConfig {
  return { root, isProduction, mode } as ResolvedConfig;
}

describe('the web build stamp', () => {
  it('refuses a build that would bundle React for development (a shell’s NODE_ENV=test)', () => {
    process.env.NODE_ENV = 'test';
    const plugin = buildStamp('dist/.vite/qless-build.json');
    expect(() => call(plugin.configResolved, resolved('/repo', false))).toThrow(
      /built for production only \(NODE_ENV=test, mode production\): run npm run build/,
    );
    expect(() => call(plugin.configResolved, resolved('/repo', true, 'development'))).toThrow(
      /mode development/,
    );
  });

  it('writes how a production build was made, for the tests’ freshness check', async () => {
    process.env.NODE_ENV = 'production';
    const root = mkdtempSync(join(tmpdir(), 'qless-stamp-'));
    const plugin = buildStamp('dist/.vite/qless-build.json');
    call(plugin.configResolved, resolved(root, true));
    await call(plugin.closeBundle);
    expect(JSON.parse(readFileSync(join(root, 'dist/.vite/qless-build.json'), 'utf8'))).toEqual({
      nodeEnv: 'production',
      mode: 'production',
      production: true,
    });
  });
});
