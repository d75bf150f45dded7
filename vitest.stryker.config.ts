import { defineConfig } from 'vitest/config';
import base from './vitest.config';

/**
 * The Vitest config Stryker runs (`npm run mutation`): the unit, api and api-mocks projects of
 * vitest.config.ts, never e2e (it starts Chromium and covers none of the mutated files).
 */
const wanted = new Set(['unit', 'api', 'api-mocks']);
const projects = (base.test?.projects ?? []).filter((project) => {
  if (typeof project !== 'object' || !('test' in project)) return false;
  const name = project.test?.name;
  return wanted.has(typeof name === 'object' ? name.label : (name ?? ''));
});
if (projects.length !== wanted.size) {
  throw new Error(
    'vitest.stryker.config.ts: unit, api or api-mocks is missing from vitest.config.ts',
  );
}

/**
 * Files that cover none of the mutated files and need what Stryker's sandbox lacks: the
 * previous release is checked out from git (the sandbox is a copy without `.git`). They would
 * only lengthen the initial run; `npm test` runs them.
 */
const NOT_IN_SANDBOX = ['apps/api/test/server/previous-release.test.ts'];

export default defineConfig({
  test: {
    projects: projects.map((project) => {
      if (typeof project !== 'object' || !('test' in project) || !project.test) return project;
      return {
        ...project,
        test: { ...project.test, exclude: [...(project.test.exclude ?? []), ...NOT_IN_SANDBOX] },
      };
    }),
  },
});
