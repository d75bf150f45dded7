import { chromium } from 'playwright-core';
import { paidTicket } from '../e2e/support/demo-ticket.js';
import { startServer } from '../e2e/support/server.js';

const server = await startServer({ env: { NODE_ENV: 'production', PAYMENT_PROVIDER: 'simulator' } });
try {
  const orgs = (await (await fetch(`${server.origin}/api/v1/organizations`)).json()) as any;
  const org = orgs.organizations[0].organization_id;
  const svc = ((await (await fetch(`${server.origin}/api/v1/organizations/${org}/services`)).json()) as any).services[0].service_id;
  const t = await paidTicket(server.origin, svc);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const urls = (process.argv[2] ?? '/my-bookings,/ticket/{ticket},{link}').split(',');
  const ctx = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });
  for (const u of urls) {
    await ctx.addInitScript(`
      window.__log = [];
      const d = (n) => n ? (n.nodeName + (n.className ? '.' + String(n.className).split(' ').join('.') : '') + ' "' + (n.textContent||'').slice(0,40) + '"') : null;
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__log.push(['shift', +e.value.toFixed(4), Math.round(e.startTime), e.sources.map(s => d(s.node) + ' ' + JSON.stringify(s.previousRect) + '->' + JSON.stringify(s.currentRect))]); }).observe({ type: 'layout-shift', buffered: true });
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__log.push(['lcp', Math.round(e.startTime), e.size, d(e.element)]); }).observe({ type: 'largest-contentful-paint', buffered: true });
    `);
    const page = await ctx.newPage();
    await page.goto(server.origin + u.replace('{ticket}', t.code).replace('{link}', t.link));
    await page.waitForTimeout(4000);
    console.log(u, JSON.stringify(await page.evaluate('window.__log'), null, 1));
  }
  await browser.close();
} finally {
  await server.stop();
}
