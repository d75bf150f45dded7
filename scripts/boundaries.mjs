/**
 * Part of `npm run lint`: the boundaries between parts of the code, checked on the resolved
 * import graph (scripts/import-graph.mjs), so that a new folder is covered without being named:
 *
 * - a web feature (apps/web/src/features/<name>) imports no other feature, type imports
 *   included: what two features share lives in lib/ or components/, and app/ composes them;
 * - apps/web/src/lib and apps/web/src/components import no feature;
 * - no import cycle among the files that run (type-only imports run nothing);
 * - the API's layers (decision 133): core/, db/, limits/ and providers/ import no module;
 *   outside a module only its face `<name>.module.ts` is imported; modules form no knot.
 *
 * Prints each violation with the importing file and exits 1 when there is one.
 */
import { boundaryProblems, importGraph } from './import-graph.mjs';

const running = importGraph();
const problems = boundaryProblems(importGraph({ types: true }), running);
for (const problem of problems) console.error(`boundaries: ${problem}`);
const edges = [...running.values()].reduce((sum, targets) => sum + targets.size, 0);
console.log(
  `boundaries: ${running.size} files, ${edges} imports that run, ${problems.length} problem(s)`,
);
if (problems.length > 0) process.exit(1);
