/**
 * No secret in nginx's logs (issue 31 item 5, decision 124): the test asks nginx, over HTTPS
 * and plain HTTP, for every kind of address that carries one — a board's and a feedback link's
 * token in the path (pages, API, the board's socket), an invitation's and a password reset's,
 * a visit key and a ticket key in an older link's query, the visit's socket and feedback-link
 * queries, a waitlist withdraw key — then reads every file nginx wrote in its log folder: none
 * of the secrets it used may be there, and each request must be there, masked.
 *
 * The secrets are made up with the real ones' shapes: nginx writes the request line whatever
 * the app answers (404 for an unknown board), so a real token would be logged the same way.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { dirname, join } from 'node:path';
import type { Checks } from './checks.js';

const secret = (bytes: number) => randomBytes(bytes).toString('base64url');

export async function checkLogSecrets(
  c: Checks,
  opts: { accessLog: string; caFile: string; hostName: string; proxyAddress: string },
): Promise<void> {
  const visit = randomUUID();
  const secrets = {
    board: secret(24),
    feedback: `${secret(16)}.${secret(32)}`,
    invitation: secret(32),
    reset: secret(32),
    visitKey: secret(24),
    ticketKey: secret(24),
    waitlistKey: secret(24),
  };
  const paths = [
    `/board/${secrets.board}`,
    `/api/v1/board/${secrets.board}`,
    `/api/v1/board/${secrets.board}/socket`,
    `/feedback/${secrets.feedback}`,
    `/api/v1/feedback/${secrets.feedback}`,
    `/invite/${secrets.invitation}`,
    `/api/v1/auth/invitations/${secrets.invitation}`,
    `/reset-password/${secrets.reset}`,
    `/visit/${visit}?k=${secrets.visitKey}`,
    `/api/v1/visits/${visit}?key=${secrets.visitKey}`,
    `/api/v1/visits/${visit}/turnSocket?lang=en&key=${secrets.visitKey}`,
    `/api/v1/visits/${visit}/feedbackLink?key=${secrets.visitKey}`,
    `/ticket/QL-ABC123?k=${secrets.ticketKey}`,
    `/api/v1/service/${randomUUID()}/waitlist/${randomUUID()}?key=${secrets.waitlistKey}`,
  ];
  const answered: string[] = [];
  for (const scheme of ['https', 'http'] as const) {
    for (const path of paths) {
      if ((await get(scheme, path, opts)) !== 0) answered.push(`${scheme} ${path}`);
    }
  }
  c.check(
    answered.length === paths.length * 2,
    `nginx answered ${answered.length} of ${paths.length * 2} requests carrying a token or key`,
  );
  const folder = dirname(opts.accessLog);
  const logs = readdirSync(folder).map((name) => ({
    name,
    text: readFileSync(join(folder, name), 'utf8'),
  }));
  const found = Object.entries(secrets).flatMap(([kind, value]) =>
    logs.filter((l) => l.text.includes(value)).map((l) => `${kind} in ${l.name}`),
  );
  c.check(
    found.length === 0,
    `no token or key in nginx's logs (${logs.map((l) => l.name).join(', ')})${found.length ? `: ${found.join('; ')}` : ''}`,
  );
  const access = logs.find((l) => join(folder, l.name) === opts.accessLog)?.text ?? '';
  const masked = access.split('\n').filter((l) => l.includes('[masked]')).length;
  c.check(
    masked >= paths.length * 2,
    `the access log has each of them, masked (${masked} lines with [masked], ${paths.length * 2} sent)`,
  );
}

/** The HTTP status nginx answered (0: no answer), from the root namespace. */
function get(
  scheme: 'https' | 'http',
  path: string,
  opts: { caFile: string; hostName: string; proxyAddress: string },
): Promise<number> {
  const send = scheme === 'https' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(
      {
        host: opts.proxyAddress,
        port: scheme === 'https' ? 443 : 80,
        path,
        headers: { host: opts.hostName },
        ...(scheme === 'https' ? { servername: opts.hostName, ca: readFileSync(opts.caFile) } : {}),
        timeout: 5000,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}
