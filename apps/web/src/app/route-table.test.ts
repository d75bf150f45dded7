import type { ApiAnswer } from '@qless/contract/web-page';
import { parse } from 'regexparam';
import { describe, expect, it } from 'vitest';
import { branchesQuery } from '../features/branches/api/get-branches';
import { organizationSearchQuery } from '../features/organizations/api/search-organizations';
import { serviceQuery } from '../features/slots/api/get-service';
import { slotsQuery } from '../features/slots/api/get-slots';
import { occupancyQuery } from '../features/slots/api/get-taken-slots';
import { ticketLookupQuery } from '../features/tickets/api/lookup-ticket';
import { planRoute } from './route-data';
import { NOT_FOUND_PAGE, ROUTES } from './route-table';

describe('the route table', () => {
  // TypeScript cannot see an import's path: the name the server links the chunk by is checked here.
  it('names each lazy page after the module it loads', async () => {
    const pages = new Set([...ROUTES.map((r) => r.page), NOT_FOUND_PAGE]);
    for (const page of pages) {
      if (page.module === null) continue;
      expect(page.module).toBe(`src/app/routes/${page.name}.tsx`);
      expect(await page.preload(), page.name).toBe(await import(`./routes/${page.name}.tsx`));
    }
    // It imports every page's module (Vite transforms each): 5 s is too short on a busy CI.
  }, 60_000);
});

describe('planRoute', () => {
  const now = new Date('2026-11-26T10:00:00Z');
  const answers = (table: Record<string, ApiAnswer>) => async (path: string) =>
    table[path] ?? { status: 500, body: null };

  it("embeds a ticket's public look-up under the query its page asks (decision 112)", async () => {
    const lookup = ticketLookupQuery('QL-7K4M-2QAB-XC9D').path;
    const body = { ticket: { code: 'QL-7K4M-2QAB-XC9D' } };
    // The code as a message or a person writes it: the page normalizes it, so does the plan.
    const plan = await planRoute(
      parse,
      '/ticket/ql-7k4m-2qab-xc9d',
      '',
      answers({ [lookup]: { status: 200, body } }),
      now,
    );
    expect(plan).toMatchObject({ status: 200, data: { api: { [lookup]: body } } });
    // An unknown ticket still has its page (the code + digits form), and no code asks nothing.
    const missing = { status: 404, body: { code: 'TICKET_NOT_FOUND', message: 'No ticket' } };
    const gone = await planRoute(
      parse,
      '/ticket/QL-7K4M-2QAB-XC9D',
      '',
      answers({ [lookup]: missing }),
      now,
    );
    expect(gone.status).toBe(200);
    expect(gone.data.errors?.[lookup]).toMatchObject({ status: 404, code: 'TICKET_NOT_FOUND' });
    const asked: string[] = [];
    const none = await planRoute(
      parse,
      '/ticket/nonsense',
      '',
      async (path) => {
        asked.push(path);
        return { status: 500, body: null };
      },
      now,
    );
    expect({ status: none.status, asked }).toEqual({ status: 200, asked: [] });
  });

  it('embeds the slots page under the very queries its hooks ask, days as the phone shows', async () => {
    const slots = { today: '2026-11-26', bookable_until: '2026-12-31', slots: [] };
    const taken = occupancyQuery('s1', { start: '2026-11-26', end: '2026-12-02' }).path;
    const plan = await planRoute(
      parse,
      '/service/s1/slots',
      '',
      answers({
        [serviceQuery('s1').path]: { status: 200, body: { service: {} } },
        [slotsQuery('s1').path]: { status: 200, body: slots },
        [taken]: { status: 200, body: { bookings: [] } },
      }),
      now,
    );
    expect(plan.status).toBe(200);
    expect(plan.module).toBe('src/app/routes/slots.tsx');
    expect(Object.keys(plan.data.api).sort()).toEqual(
      [serviceQuery('s1').path, slotsQuery('s1').path, taken].sort(),
    );
    expect(plan.data.now).toBe(now.toISOString());
  });

  it('answers 404 with the error embedded for an unknown service', async () => {
    const body = { code: 'SERVICE_NOT_FOUND', message: 'Service not found' };
    const plan = await planRoute(
      parse,
      '/service/nope/slots',
      '',
      answers({ [serviceQuery('nope').path]: { status: 404, body } }),
      now,
    );
    expect(plan.status).toBe(404);
    expect(plan.data.errors).toEqual({
      [serviceQuery('nope').path]: {
        status: 404,
        code: 'SERVICE_NOT_FOUND',
        message: body.message,
      },
    });
  });

  it("embeds an organization's branches for its picker, and leaves the area's own path to the area", async () => {
    const path = branchesQuery('o1').path;
    const body = { organization: {}, branches: [] };
    const plan = await planRoute(
      parse,
      '/o1/branches',
      '?city=Douala',
      answers({ [path]: { status: 200, body } }),
      now,
    );
    expect(plan).toMatchObject({ status: 200, module: 'src/app/routes/branches.tsx' });
    expect(plan.data.api).toEqual({ [path]: body });
    const missing = { status: 404, body: { code: 'ORGANIZATION_NOT_FOUND', message: 'No' } };
    const gone = await planRoute(
      parse,
      '/o2/branches',
      '',
      answers({ [branchesQuery('o2').path]: missing }),
      now,
    );
    expect(gone.status).toBe(404);
    // The organization area's Branches screen is not an organization called "organization".
    const area = await planRoute(parse, '/organization/branches', '', answers({}), now);
    expect(area.module).toBe('src/app/routes/admin.tsx');
  });

  it('reads the list query as the page does, and 404s an unknown path', async () => {
    const path = organizationSearchQuery('bank é', 2).path;
    const list = await planRoute(
      parse,
      '/organizations',
      '?q=bank%20%C3%A9&page=2',
      answers({ [path]: { status: 200, body: { organizations: [] } } }),
      now,
    );
    expect(Object.keys(list.data.api)).toEqual([path]);
    const unknown = await planRoute(parse, '/no/such/page', '', answers({}), now);
    expect(unknown).toMatchObject({ status: 404, module: 'src/app/routes/not-found.tsx' });
  });
});
