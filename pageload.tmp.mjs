import { chromium } from 'playwright-core';
import { readFileSync, readdirSync } from 'node:fs';
const flags = ['--headless','--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--disable-sync', ...(process.env.XFLAGS?process.env.XFLAGS.split(' '):[])];
const b = await chromium.launch({ executablePath: '/usr/lib/chromium/chromium-headless-shell', args: flags });
function chromeCpu() { let s=0; for (const p of readdirSync('/proc')) { if(!/^\d+$/.test(p)) continue; try { const st=readFileSync(`/proc/${p}/stat`,'utf8'); if(!st.includes('(chromium-heads')&&!st.includes('(chrom')) continue; const f=st.slice(st.lastIndexOf(')')+2).split(' '); s+=Number(f[11])+Number(f[12]); } catch {} } return s/100; }
const url = process.argv[2] ?? 'http://127.0.0.1:3999/';
const N = Number(process.argv[3] ?? 10);
// warm
{ const c = await b.newContext({viewport:{width:360,height:740}}); const p = await c.newPage(); await p.goto(url, {waitUntil:'networkidle'}); await c.close(); }
const c0 = chromeCpu(); const t0 = Date.now();
for (let i=0;i<N;i++){ const c = await b.newContext({viewport:{width:360,height:740}}); const p = await c.newPage(); await p.goto(url, {waitUntil:'networkidle'}); await c.close(); }
console.log(url, 'per load CPU-s', ((chromeCpu()-c0)/N).toFixed(3), 'wall ms', (Date.now()-t0)/N|0);
const c = await b.newContext({viewport:{width:360,height:740}}); const p = await c.newPage(); await p.goto(url, {waitUntil:'networkidle'});
const c1 = chromeCpu(); await p.waitForTimeout(5000); console.log('idle 5 s CPU-s', (chromeCpu()-c1).toFixed(2));
await b.close();
