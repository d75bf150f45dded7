import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, LogController, type RouteOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppDeps } from './app-deps.js';
import { boundBodyDepth } from './body-depth.js';
import type { Config } from './config.js';
import { frameworkErrors, registerErrorHandler } from './errors.js';
import { Lifecycle } from './lifecycle.js';
import type { CounterStore } from './limits/counter-store.js';
import {
  databaseRateLimitStore,
  memoryRateLimitStore,
  sharedRateLimitStore,
} from './limits/route-store.js';
import { acceptRequestId } from './request-context.js';
import { registerRequestLog, serializeRequest } from './request-log.js';
import { registerSecurityHeaders } from './security-headers.js';
import { builtIndexScriptHashes, builtIndexStyleHashes } from './web-csp.js';

/** What the HTTP layer takes from buildApp's options. */
export interface HttpOptions {
  logStream?: { write(line: string): void } | undefined;
  onRoute?: ((route: RouteOptions) => void) | undefined;
}

function websocketOrigins(origins: string[]): string[] {
  return origins.map((o) => o.replace(/^http/, 'ws'));
}

/**
 * req.ip becomes the rightmost untrusted hop. Fastify 5 refuses to trust a bare number
 * (fails closed), so a hop count is given as the function proxy-addr would make of it:
 * the socket peer and the next `hops - 1` entries from the right are our proxies.
 */
function trustProxyOption(
  trust: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/**
 * The HTTP server before any module: logging (one line per request), request ids, graceful
 * shutdown (decision 028), schemas, errors, bounded bodies, security headers with the built
 * page's hashes, CORS when configured, cookies, and the auth slot on each request.
 */
export async function createHttp(deps: AppDeps, options: HttpOptions): Promise<FastifyInstance> {
  const { config, metrics } = deps;
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            serializers: { req: serializeRequest },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    trustProxy: trustProxyOption(config.trustProxy),
    // One line per request, at its answer (request-log.ts); its id may come from the proxy.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    genReqId: (req) => acceptRequestId(req.headers['x-request-id']),
    bodyLimit: 64 * 1024,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Graceful shutdown (decision 028): follows connections and requests from the first one.
  const lifecycle = new Lifecycle();
  lifecycle.attach(app);
  app.decorate('lifecycle', lifecycle);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerRequestLog(app, metrics);
  // Before any plugin is registered, so every route's JSON bodies are bounded.
  boundBodyDepth(app);

  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...builtIndexScriptHashes(config.webDistDir)],
        // The stylesheet is inlined into index.html: allowed by its hash, not 'unsafe-inline'.
        styleSrc: ["'self'", ...builtIndexStyleHashes(config.webDistDir)],
        // Uploaded logos are served by us under PUBLIC_ORIGIN (also when reached by another name).
        imgSrc: ["'self'", 'data:', 'blob:', config.publicOrigin],
        connectSrc: ["'self'", ...websocketOrigins([config.publicOrigin])],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  // Same-origin pages need no CORS; other origins only when configured (without any, the
  // plugin would only add a hook to every request that answers nothing).
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
    });
  }
  await app.register(cookie);
  app.decorateRequest('auth', null);
  return app;
}

/**
 * Route rate limits, counted in the database (or Redis) so that a limit holds in sum over
 * every process; in memory on the embedded database, which only one process can open
 * (decision 014).
 */
export async function registerRateLimits(
  app: FastifyInstance,
  deps: AppDeps,
  shared: CounterStore | undefined,
): Promise<void> {
  const { database, db, clock } = deps;
  await app.register(rateLimit, {
    global: false,
    store:
      database.engine === 'pglite'
        ? memoryRateLimitStore(clock, db)
        : shared
          ? sharedRateLimitStore(shared, clock)
          : databaseRateLimitStore(db, clock),
  });
}
