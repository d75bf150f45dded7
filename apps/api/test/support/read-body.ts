import type { IncomingMessage } from 'node:http';

/** A request's whole body, as the local fakes of providers and proxies read it. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The same, as UTF-8 text. */
export async function readText(req: IncomingMessage): Promise<string> {
  return (await readBody(req)).toString('utf8');
}
