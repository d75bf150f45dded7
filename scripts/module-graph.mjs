/**
 * `node scripts/module-graph.mjs`: how the API's modules (apps/api/src/modules/<name>) depend
 * on each other at run time, from the resolved import graph (scripts/import-graph.mjs; type-only
 * imports run nothing and are left out). Prints each module's imports of other modules, the
 * knots (modules that import each other, directly or through others), and the levels of the
 * graph once each knot is one node: a module's level is one more than the highest level it
 * imports. A layered codebase has no knot; its levels say how deep a change can reach.
 */
import { cycles, importGraph, moduleGraph } from './import-graph.mjs';

const modules = moduleGraph(importGraph());
const knots = cycles(modules);
const knotOf = new Map();
for (const knot of knots) for (const m of knot) knotOf.set(m, knot.join('+'));
const node = (m) => knotOf.get(m) ?? m;
const condensed = new Map();
for (const [m, targets] of modules) {
  if (!condensed.has(node(m))) condensed.set(node(m), new Set());
  for (const t of targets) if (node(t) !== node(m)) condensed.get(node(m)).add(node(t));
}
const level = new Map();
const levelOf = (n) => {
  if (level.has(n)) return level.get(n);
  let highest = 0;
  for (const t of condensed.get(n) ?? []) highest = Math.max(highest, levelOf(t) + 1);
  level.set(n, highest);
  return highest;
};
for (const n of condensed.keys()) levelOf(n);

for (const [m, targets] of [...modules].sort()) {
  console.log(`${m} → ${[...targets].sort().join(', ') || '(no module)'}`);
}
const inKnots = knots.reduce((sum, knot) => sum + knot.length, 0);
console.log(
  `\n${modules.size} modules; ${knots.length} knot(s) holding ${inKnots} modules${
    knots.length ? `: ${knots.map((k) => k.join(', ')).join(' | ')}` : ''
  }; ${Math.max(0, ...level.values()) + 1} level(s)`,
);
