import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { appShellHtml, offlineManifest } from './offline';

const INDEX = [
  '<!doctype html><html lang="en"><head><style>a{color:red}</style>',
  '<meta name="qless-module" content="/assets/index-AAAAAAAA.js"><script>boot()</script></head>',
  '<body><div id="root"><!--app-html--><div class="shell"><header>Qless</header>',
  '<main class="site-main"><section class="hero">Book your spot</section></main></div>',
  '<!--/app-html--></div></body></html>',
].join('');

function chunk(fileName: string, facade: string | null, imports: string[] = [], isEntry = false) {
  return { type: 'chunk', fileName, facadeModuleId: facade, imports, isEntry };
}

function bundleOf(...chunks: ReturnType<typeof chunk>[]): Rolldown.OutputBundle {
  const bundle: Record<string, unknown> = {
    'index.html': { type: 'asset', fileName: 'index.html', source: INDEX },
  };
  for (const c of chunks) bundle[c.fileName] = c;
  return bundle as unknown as Rolldown.OutputBundle;
}

const web = '/repo/apps/web';
const APP = [
  chunk('assets/index-AAAAAAAA.js', `${web}/index.html`, ['assets/react-DDDDDDDD.js'], true),
  chunk('assets/react-DDDDDDDD.js', null),
  chunk('assets/ticket-EEEEEEEE.js', `${web}/src/app/routes/ticket.tsx`, [
    'assets/index-AAAAAAAA.js',
    'assets/tickets-FFFFFFFF.js',
  ]),
  chunk('assets/tickets-FFFFFFFF.js', null),
  chunk('assets/my-bookings-GGGGGGGG.js', `${web}/src/app/routes/my-bookings.tsx`, [
    'assets/tickets-FFFFFFFF.js',
  ]),
  chunk('assets/browser-HHHHHHHH.js', '/repo/node_modules/qrcode/lib/browser.js'),
  chunk('assets/fr-IIIIIIII.js', `${web}/src/i18n/fr.ts`, ['assets/react-DDDDDDDD.js']),
  chunk('assets/admin-JJJJJJJJ.js', `${web}/src/app/routes/admin.tsx`),
  chunk('assets/ticket-pdf-KKKKKKKK.js', `${web}/src/features/tickets/lib/ticket-pdf.ts`),
];

describe('the offline manifest of a build', () => {
  it('keeps the entry first, the ticket, My bookings and the QR encoder with their imports', () => {
    const { required, optional } = offlineManifest(bundleOf(...APP), INDEX);
    expect(required[0]).toBe('/assets/index-AAAAAAAA.js');
    expect(new Set(required)).toEqual(
      new Set([
        '/assets/index-AAAAAAAA.js',
        '/assets/react-DDDDDDDD.js',
        '/assets/ticket-EEEEEEEE.js',
        '/assets/tickets-FFFFFFFF.js',
        '/assets/my-bookings-GGGGGGGG.js',
        '/assets/browser-HHHHHHHH.js',
        '/favicon.svg',
      ]),
    );
    // French only if already loaded; what the entry brings is not listed twice.
    expect(optional).toEqual(['/assets/fr-IIIIIIII.js']);
    // Never the organization area or the PDF library.
    expect([...required, ...optional].some((f) => /admin|ticket-pdf/.test(f))).toBe(false);
  });

  it('has a version that changes with any file of the build, and only then', () => {
    const one = offlineManifest(bundleOf(...APP), INDEX).version;
    expect(one).toMatch(/^[0-9a-f]{16}$/);
    expect(offlineManifest(bundleOf(...APP), INDEX).version).toBe(one);
    const admin = chunk('assets/admin-ZZZZZZZZ.js', `${web}/src/app/routes/admin.tsx`);
    const changed = APP.map((c) => (c.fileName.startsWith('assets/admin-') ? admin : c));
    expect(offlineManifest(bundleOf(...changed), INDEX).version).not.toBe(one);
    expect(offlineManifest(bundleOf(...APP), INDEX.replace('boot()', 'boot2()')).version).not.toBe(
      one,
    );
  });

  it('fails the build when a page it must keep has no chunk', () => {
    const withoutTicket = APP.filter((c) => !c.fileName.startsWith('assets/ticket-E'));
    expect(() => offlineManifest(bundleOf(...withoutTicket), INDEX)).toThrow(/ticket\.tsx/);
  });
});

describe('the app shell', () => {
  it('is index.html without the landing content, its style and boot byte for byte', () => {
    const shell = appShellHtml(INDEX);
    expect(shell).not.toContain('Book your spot');
    expect(shell).toContain('<main class="site-main"></main>');
    expect(shell).toContain('<style>a{color:red}</style>');
    expect(shell).toContain('<script>boot()</script>');
    expect(shell).toContain('<header>Qless</header>');
  });

  it('fails the build when index.html has no main to empty', () => {
    expect(() => appShellHtml('<html><body></body></html>')).toThrow(/main/);
  });
});
