/**
 * The import graph of the source under apps/<app>/src and packages/<package>/src (not tests):
 * each file's imports that run (an `import type` / `export type` runs nothing and is left out;
 * `import { type A }` still loads its file), resolved to files. Used by scripts/boundaries.mjs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(new URL('..', import.meta.url).pathname);

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      yield full;
    }
  }
}

/** Source roots: apps/*\/src and packages/*\/src. */
export function sourceRoots() {
  return ['apps', 'packages'].flatMap((top) =>
    readdirSync(join(ROOT, top), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(ROOT, top, d.name, 'src')))
      .map((d) => join(ROOT, top, d.name, 'src')),
  );
}

/**
 * The module specifiers a file imports, each with whether it is type-only, read from
 * TypeScript's own parse: `import … from`, `export … from`, `import '…'` and `import('…')`.
 * (A regular expression over the text, as before, took a string such as '/organization/*' for
 * the start of a comment and missed the imports after it.) `import type …` / `export type …`
 * run nothing. `import { type A, type B }` is not type-only here: with verbatimModuleSyntax
 * (tsconfig.base.json) it compiles to `import {} from '…'`, which still loads the file.
 */
function importsOf(file, text) {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const found = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node)
        ? Boolean(node.importClause?.isTypeOnly)
        : node.isTypeOnly;
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function resolveFile(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier.replace(/\.(m?js|jsx)$/, ''));
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    `${base}.mjs`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/**
 * Every source file and the files it imports at run time, as paths relative to the repository
 * (`apps/web/src/lib/x.ts`), from TypeScript's parse: an import in a comment is none.
 * `types: true` keeps the type-only imports too (a boundary is about knowing, not running);
 * `roots` and `base` read another tree (the tests').
 */
export function importGraph({ types = false, roots = sourceRoots(), base = ROOT } = {}) {
  const graph = new Map();
  for (const root of roots) {
    for (const file of sources(root)) {
      const targets = new Set();
      for (const { specifier, typeOnly } of importsOf(file, readFileSync(file, 'utf8'))) {
        if (!types && typeOnly) continue;
        const target = resolveFile(file, specifier);
        if (target) targets.add(relative(base, target));
      }
      graph.set(relative(base, file), targets);
    }
  }
  return graph;
}

/** The cycles of the graph: each strongly connected component of more than one file. */
export function cycles(graph) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const found = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.has(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

const FEATURE = /^apps\/web\/src\/features\/([^/]+)\//;
const BELOW_FEATURES = /^apps\/web\/src\/(lib|components)\//;

/**
 * What breaks a boundary (scripts/boundaries.mjs): `all` has every import, type-only ones
 * included; `running` only the imports that run (for cycles).
 */
export function boundaryProblems(all, running) {
  const problems = [];
  for (const [file, targets] of all) {
    const own = file.match(FEATURE)?.[1];
    for (const target of targets) {
      const theirs = target.match(FEATURE)?.[1];
      if (!theirs) continue;
      if (own && own !== theirs) {
        problems.push(
          `${file} imports ${target}: web features never import each other (move the shared piece to lib/ or components/, or let app/ compose them)`,
        );
      } else if (BELOW_FEATURES.test(file)) {
        problems.push(
          `${file} imports ${target}: lib/ and components/ are below the features (move the shared piece down, or let app/ compose it)`,
        );
      }
    }
  }
  problems.push(...apiProblems(all, running));
  for (const cycle of cycles(running)) {
    problems.push(`an import cycle of ${cycle.length} files: ${cycle.join(' → ')}`);
  }
  return problems;
}

const API_MODULE = /^apps\/api\/src\/modules\/([^/]+)\//;
const API_BELOW = /^apps\/api\/src\/(core|db|limits|providers)\//;
const faceOf = (name) => `apps/api/src/modules/${name}/${name}.module.ts`;

/** The API modules' run-time imports of each other: module name → names it imports. */
export function moduleGraph(running) {
  const modules = new Map();
  for (const [file, targets] of running) {
    const own = file.match(API_MODULE)?.[1];
    if (!own) continue;
    if (!modules.has(own)) modules.set(own, new Set());
    for (const target of targets) {
      const theirs = target.match(API_MODULE)?.[1];
      if (theirs && theirs !== own) modules.get(own).add(theirs);
    }
  }
  return modules;
}

/**
 * The API's layers (decision 133): core/, db/, limits/ and providers/ import no module; from
 * outside a module, only its public face `<name>.module.ts` is imported (type imports
 * included); the modules' run-time imports of each other form no knot.
 */
function apiProblems(all, running) {
  const problems = [];
  for (const [file, targets] of all) {
    const own = file.match(API_MODULE)?.[1];
    const below = file.match(API_BELOW)?.[1];
    for (const target of targets) {
      const theirs = target.match(API_MODULE)?.[1];
      if (!theirs || theirs === own) continue;
      if (below) {
        problems.push(
          `${file} imports ${target}: ${below}/ is below the modules (move the piece down, or let app.ts pass it in)`,
        );
      } else if (target !== faceOf(theirs)) {
        problems.push(
          `${file} imports ${target}: outside a module, import only its public face ${faceOf(theirs)}`,
        );
      }
    }
  }
  for (const knot of cycles(moduleGraph(running))) {
    problems.push(
      `API modules import each other at run time: ${knot.join(' ⇄ ')} (move what they share to core/, or pass it in from app.ts)`,
    );
  }
  return problems;
}
