import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
  RouteOptions,
} from 'fastify';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a route may write what the read cache holds (its methods and its config). */
export function mayWriteCatalog(route: Pick<RouteOptions, 'method' | 'config'>): boolean {
  const config = route.config as { writes?: boolean; touchesCatalog?: boolean } | undefined;
  if (config?.touchesCatalog === false) return false;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return config?.writes === true || methods.some((m) => !READS.has(m));
}

function asList<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/**
 * Read-your-writes: a request that may have written answers only once this process's read
 * cache has heard of its commit, so the client's next read here cannot be stale. The hooks
 * are the routes' own, added as each route is declared, to the routes that may write (a
 * method other than GET/HEAD/OPTIONS, or `config.writes` — a provider's GET callback —
 * unless `config.touchesCatalog: false`): a read pays for nothing. Only a request that
 * reached its handler may have written: a refusal by a limit, a guard or validation answers
 * without the round trip. Registered before any route.
 */
export function registerReadYourWrites(
  app: FastifyInstance,
  cache: { sync(): Promise<void> },
): void {
  app.decorateRequest('reachedHandler', false);
  // Last of the route's preHandlers: the handler runs next.
  const reached: preHandlerHookHandler = (req, _reply, done) => {
    req.reachedHandler = true;
    done();
  };
  const synced: onSendHookHandler = (
    req: FastifyRequest,
    _reply: FastifyReply,
    payload: unknown,
    done: (err: Error | null, payload?: unknown) => void,
  ) => {
    // A route of several methods (app.all) writes only through the writing ones.
    const { config } = req.routeOptions;
    const writes = !READS.has(req.method) || config.writes === true;
    if (!writes || !req.reachedHandler) return done(null, payload);
    cache.sync().then(
      () => done(null, payload),
      (err: Error) => done(err),
    );
  };
  app.addHook('onRoute', (route) => {
    if (!mayWriteCatalog(route)) return;
    route.preHandler = [...asList(route.preHandler), reached];
    route.onSend = [...asList(route.onSend), synced];
  });
}
