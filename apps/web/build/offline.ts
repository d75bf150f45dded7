/**
 * The offline ticket's build step (decision 113): writes `dist/sw.js`, the service worker
 * with this build's version and the list of files it keeps, and `dist/app-shell.html`, the
 * page it gives an offline visit of a ticket or My bookings.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build, type Plugin, type Rolldown } from 'vite';
import type { OfflineManifest } from '../src/sw/offline-rules';

const WORKER_SOURCE = fileURLToPath(new URL('../src/sw/service-worker.ts', import.meta.url));

/**
 * Modules whose chunks (with their static imports) a ticket and My bookings need offline,
 * besides the entry's.
 */
export const OFFLINE_MODULES = [
  'src/app/routes/ticket.tsx',
  'src/app/routes/my-bookings.tsx',
  // The QR encoder, imported on demand by the ticket page.
  'node_modules/qrcode/',
] as const;
/** Kept only if the browser already loaded them (decision 113). */
export const OPTIONAL_MODULES = ['src/i18n/fr.ts'] as const;
/** Other files of the shell (public/). */
const SHELL_FILES = ['/favicon.svg'];

type Chunk = Rolldown.OutputChunk;

/** The chunk whose entry module's path contains `module` (a path from the web app's root). */
function chunkOf(chunks: Chunk[], module: string): Chunk {
  const found = chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').includes(module));
  if (!found) throw new Error(`offline: no chunk for ${module}`);
  return found;
}

/** A chunk's file and its static imports', transitively, as URL paths. */
function closure(byFile: Map<string, Chunk>, start: Chunk, into: Set<string>): void {
  if (into.has(`/${start.fileName}`)) return;
  into.add(`/${start.fileName}`);
  for (const file of start.imports) {
    const chunk = byFile.get(file);
    if (chunk) closure(byFile, chunk, into);
  }
}

/** The version and files of a build, from its bundle. */
export function offlineManifest(bundle: Rolldown.OutputBundle, indexHtml: string): OfflineManifest {
  const chunks = Object.values(bundle).filter((o): o is Chunk => o.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const required = new Set<string>();
  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw new Error('offline: the bundle has no entry chunk');
  // The entry first: the worker checks that the shell starts it.
  closure(byFile, entry, required);
  for (const module of OFFLINE_MODULES) closure(byFile, chunkOf(chunks, module), required);
  for (const file of SHELL_FILES) required.add(file);
  const optional = new Set<string>();
  for (const module of OPTIONAL_MODULES) closure(byFile, chunkOf(chunks, module), optional);
  for (const file of required) optional.delete(file);
  // Every file name carries its content's hash: a change anywhere is a new version.
  const version = createHash('sha256')
    .update(
      Object.keys(bundle)
        .filter((name) => name !== 'index.html')
        .sort()
        .join('\n'),
    )
    .update(indexHtml)
    .digest('hex')
    .slice(0, 16);
  return { version, required: [...required], optional: [...optional] };
}

const LANDING_MAIN = /<main class="site-main">[\s\S]*?<\/main>/;

/**
 * index.html with the header and an empty main: the boot, the inlined stylesheet and the
 * outlet stay byte for byte (the CSP allows them by hash), only the landing's content goes,
 * so an offline ticket does not first paint the home page's hero.
 */
export function appShellHtml(indexHtml: string): string {
  if (!LANDING_MAIN.test(indexHtml)) throw new Error('offline: index.html has no <main> to empty');
  return indexHtml.replace(LANDING_MAIN, '<main class="site-main"></main>');
}

/** The worker's script for a manifest: service-worker.ts and its rules in one classic script. */
export async function serviceWorkerScript(manifest: OfflineManifest): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    define: { __QLESS_OFFLINE__: JSON.stringify(manifest) },
    build: {
      write: false,
      target: 'es2020',
      minify: true,
      sourcemap: false,
      modulePreload: false,
      rolldownOptions: {
        input: WORKER_SOURCE,
        // A classic script: module workers are newer than some phones' browsers.
        output: { format: 'iife', entryFileNames: 'sw.js' },
      },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const output of outputs) {
    if (!('output' in output)) continue;
    const chunk = output.output.find((o): o is Chunk => o.type === 'chunk');
    if (chunk) return chunk.code;
  }
  throw new Error('offline: the service worker was not built');
}

export function offlineTicket(): Plugin {
  return {
    name: 'qless-offline-ticket',
    apply: 'build',
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const index = bundle['index.html'];
        if (index?.type !== 'asset') throw new Error('offline: the bundle has no index.html');
        const html =
          typeof index.source === 'string' ? index.source : new TextDecoder().decode(index.source);
        const manifest = offlineManifest(bundle, html);
        this.emitFile({ type: 'asset', fileName: 'app-shell.html', source: appShellHtml(html) });
        this.emitFile({
          type: 'asset',
          fileName: 'sw.js',
          source: await serviceWorkerScript(manifest),
        });
      },
    },
  };
}
