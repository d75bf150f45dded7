/** Parsers of single environment values, shared by config.ts's schema. */
import { isIP } from 'node:net';
import { z } from 'zod';

export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

export const origin = z.url().transform((u, ctx) => {
  const parsed = new URL(u);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: 'must be an http(s) origin' });
    return z.NEVER;
  }
  return parsed.origin;
});

/** Names proxy-addr understands besides addresses and CIDR ranges. */
export const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const max = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}

/**
 * Which proxies in front of us may say who the client is. `true` (trust every hop) is
 * refused: the client then writes its own address into X-Forwarded-For and walks through
 * every per-address limit.
 */
export const trustProxy = z.string().transform((raw, ctx): false | number | string[] => {
  const v = raw.trim().toLowerCase();
  if (['false', 'no', 'off', '0'].includes(v)) return false;
  if (['true', 'yes', 'on'].includes(v)) {
    ctx.addIssue({
      code: 'custom',
      message:
        'trusting every proxy lets a client forge its address; give the number of proxies in front of the app (e.g. 1) or their addresses/CIDR ranges (e.g. 10.0.0.0/8,192.168.1.10)',
    });
    return z.NEVER;
  }
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 10) {
      ctx.addIssue({ code: 'custom', message: 'a hop count must be between 0 and 10' });
      return z.NEVER;
    }
    return hops;
  }
  const entries = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const bad = entries.filter((x) => !isProxyEntry(x));
  if (entries.length === 0 || bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `not a hop count nor a list of IP addresses/CIDR ranges: ${bad.join(', ') || raw}`,
    });
    return z.NEVER;
  }
  return entries;
});

/** smtp:// (STARTTLS when offered) or smtps:// (TLS from the start), credentials in the URL. */
export const smtpUrl = z.string().transform((raw, ctx) => {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // The URL may hold a password: never echo it back.
    ctx.addIssue({ code: 'custom', message: 'must be a URL like smtp://user:pass@host:587' });
    return z.NEVER;
  }
  if ((parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') || !parsed.hostname) {
    ctx.addIssue({ code: 'custom', message: 'must be an smtp:// or smtps:// URL with a host' });
    return z.NEVER;
  }
  return raw;
});

/** "no-reply@example.cm" or "Qless <no-reply@example.cm>". */
export const mailFrom = z
  .string()
  .trim()
  .max(254)
  .regex(
    /^(?:[^<>@\r\n]*<[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+)$/,
    'must be an address like no-reply@example.cm or "Qless <no-reply@example.cm>"',
  );

export const workerInterval = z.coerce.number().int().min(100).max(3_600_000);

/** A gateway's base URL, without a trailing "/"; plain http only for a local stand-in. */
export const httpsOrLocalUrl = z.url().transform((u, ctx) => {
  const parsed = new URL(u);
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && local)) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be an https:// URL (http:// only for localhost)',
    });
    return z.NEVER;
  }
  return u.replace(/\/+$/, '');
});

/**
 * The push services of the browsers customers use (decision 142): Chrome and Android's, Firefox's,
 * Safari's and Edge's. A subscription whose endpoint is elsewhere is refused: the server posts
 * to it, and must not be made to post anywhere a browser says.
 */
export const DEFAULT_PUSH_SERVICE_ORIGINS = [
  'https://fcm.googleapis.com',
  'https://updates.push.services.mozilla.com',
  'https://web.push.apple.com',
  'https://*.notify.windows.com',
].join(',');

/** `https://host` (or `https://*.domain`), or http:// on this machine (a test's fake). */
const PUSH_ORIGIN =
  /^(?:https:\/\/(?:\*\.)?[a-z0-9.-]+|http:\/\/(?:localhost|127\.0\.0\.1)(?::\d+)?)$/;

export const pushServiceOrigins = z.string().transform((s, ctx) => {
  const entries = s
    .split(',')
    .map((o) => o.trim().toLowerCase().replace(/\/+$/, ''))
    .filter(Boolean);
  const bad = entries.filter((o) => !PUSH_ORIGIN.test(o));
  if (bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `not https:// origins (http:// only for localhost): ${bad.join(', ')}`,
    });
    return z.NEVER;
  }
  return entries;
});

/** Who push services may reach about our messages: a mailto: address or an https:// page. */
export const pushContact = z
  .string()
  .trim()
  .regex(
    /^(?:mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/,
    'must be a mailto: address or an https:// URL',
  );
