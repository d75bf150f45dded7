import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { boundaryProblems, importGraph } from './import-graph.mjs';

const graph = (edges: Record<string, string[]>) =>
  new Map(Object.entries(edges).map(([file, targets]) => [file, new Set(targets)]));

describe('the boundaries npm run lint keeps (scripts/boundaries.mjs)', () => {
  it('refuses a feature importing another, whichever the features', () => {
    const edges = graph({
      'apps/web/src/features/queue-public/components/a.tsx': [
        'apps/web/src/features/waitlist/lib/b.ts',
      ],
      'apps/web/src/features/waitlist/lib/b.ts': [],
    });
    const problems = boundaryProblems(edges, graph({}));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('web features never import each other');
  });

  it('lets a feature import itself, lib/, components/ and the contract', () => {
    const edges = graph({
      'apps/web/src/features/slots/components/a.tsx': [
        'apps/web/src/features/slots/lib/b.ts',
        'apps/web/src/lib/c.ts',
        'apps/web/src/components/ui/d.tsx',
      ],
    });
    expect(boundaryProblems(edges, graph({}))).toEqual([]);
  });

  it('refuses lib/ or components/ importing a feature', () => {
    const edges = graph({
      'apps/web/src/lib/a.ts': ['apps/web/src/features/auth/lib/b.ts'],
      'apps/web/src/components/ui/c.tsx': ['apps/web/src/features/auth/lib/b.ts'],
    });
    const problems = boundaryProblems(edges, graph({}));
    expect(problems).toHaveLength(2);
    expect(problems.every((p) => p.includes('below the features'))).toBe(true);
  });

  it('refuses an import cycle among the imports that run', () => {
    const running = graph({
      'apps/api/src/a.ts': ['apps/api/src/b.ts'],
      'apps/api/src/b.ts': ['apps/api/src/c.ts'],
      'apps/api/src/c.ts': ['apps/api/src/a.ts'],
      'apps/api/src/d.ts': ['apps/api/src/a.ts'],
    });
    const problems = boundaryProblems(graph({}), running);
    expect(problems).toEqual([
      'an import cycle of 3 files: apps/api/src/a.ts → apps/api/src/b.ts → apps/api/src/c.ts',
    ]);
  });
});

describe('the API layers npm run lint keeps (decision 133)', () => {
  const api = 'apps/api/src';

  it('refuses core/, db/, limits/ or providers/ importing a module, type imports included', () => {
    const edges = graph({
      [`${api}/core/access/a.ts`]: [`${api}/modules/queue/queue.module.ts`],
      [`${api}/db/b.ts`]: [`${api}/modules/bookings/bookings.repository.ts`],
      [`${api}/limits/c.ts`]: [`${api}/modules/waitlist/waitlist.module.ts`],
      [`${api}/providers/d.ts`]: [`${api}/modules/payments/payments.module.ts`],
    });
    const problems = boundaryProblems(edges, graph({}));
    expect(problems).toHaveLength(4);
    expect(problems.every((p) => p.includes('is below the modules'))).toBe(true);
  });

  it("refuses a module's inner file imported from another module or from app.ts", () => {
    const edges = graph({
      [`${api}/modules/feedback/a.ts`]: [`${api}/modules/queue/queue-day.ts`],
      [`${api}/app.ts`]: [`${api}/modules/queue/queue.service.ts`],
    });
    const problems = boundaryProblems(edges, graph({}));
    expect(problems).toHaveLength(2);
    expect(problems.every((p) => p.includes('import only its public face'))).toBe(true);
    expect(problems[0]).toContain(`${api}/modules/queue/queue.module.ts`);
  });

  it("lets a module import its own files, core/, and another module's face", () => {
    const edges = graph({
      [`${api}/modules/checkin/a.ts`]: [
        `${api}/modules/checkin/b.ts`,
        `${api}/core/access/roles.ts`,
        `${api}/modules/queue/queue.module.ts`,
      ],
      [`${api}/app.ts`]: [`${api}/modules/checkin/checkin.module.ts`],
    });
    expect(boundaryProblems(edges, graph({}))).toEqual([]);
  });

  it('refuses modules that import each other at run time, even through their faces', () => {
    const running = graph({
      [`${api}/modules/queue/queue.service.ts`]: [`${api}/modules/feedback/feedback.module.ts`],
      [`${api}/modules/feedback/feedback.module.ts`]: [`${api}/modules/feedback/words.ts`],
      [`${api}/modules/feedback/words.ts`]: [`${api}/modules/queue/queue.module.ts`],
      [`${api}/modules/queue/queue.module.ts`]: [],
    });
    const problems = boundaryProblems(graph({}), running);
    expect(problems).toEqual([
      'API modules import each other at run time: feedback ⇄ queue (move what they share to core/, or pass it in from app.ts)',
    ]);
  });

  it('counts a type-only import between modules as no knot', () => {
    const all = graph({
      [`${api}/modules/queue/a.ts`]: [`${api}/modules/feedback/feedback.module.ts`],
      [`${api}/modules/feedback/b.ts`]: [`${api}/modules/queue/queue.module.ts`],
    });
    const running = graph({
      [`${api}/modules/queue/a.ts`]: [`${api}/modules/feedback/feedback.module.ts`],
    });
    expect(boundaryProblems(all, running)).toEqual([]);
  });
});

describe('the import graph read from files', () => {
  // A tree of its own: a file written under apps/web/src would make the browser tests
  // build the web app again in the middle of a run.
  const base = mkdtempSync(join(tmpdir(), 'qless-boundaries-'));
  const root = join(base, 'apps/web/src');
  const dir = join(root, 'features/probe');
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('resolves relative imports, keeps type-only ones apart, ignores comments', () => {
    // `import { type D }` still loads d (verbatimModuleSyntax keeps `import {} from './d'`).
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'a.ts'),
      [
        "import { b } from './b';",
        "import type { C } from './c';",
        "import { type D } from './d';",
        "// import { e } from './e';",
        // A string that looks like the start of a comment hid the imports after it.
        "const pattern = '/organization/*';",
        "export const lazy = () => import('./f');",
        "/* import { g } from './g'; */",
      ].join('\n'),
    );
    for (const name of ['b', 'c', 'd', 'e', 'f', 'g']) writeFileSync(join(dir, `${name}.ts`), '');
    const probe = 'apps/web/src/features/probe';
    const running = importGraph({ roots: [root], base }).get(`${probe}/a.ts`);
    expect([...(running ?? [])].sort()).toEqual([
      `${probe}/b.ts`,
      `${probe}/d.ts`,
      `${probe}/f.ts`,
    ]);
    const all = importGraph({ types: true, roots: [root], base }).get(`${probe}/a.ts`);
    expect([...(all ?? [])].sort()).toEqual([
      `${probe}/b.ts`,
      `${probe}/c.ts`,
      `${probe}/d.ts`,
      `${probe}/f.ts`,
    ]);
  });
});
