import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppDeps } from './app-deps.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { registerErrorHandler } from './errors.js';
import { catalogRoutes } from './modules/catalog.routes.js';
import { contactRoutes } from './modules/contact/contact.routes.js';
import { healthRoutes } from './modules/platform/health.routes.js';
import { registerWebStatic } from './web-static.js';

export interface BuildAppOptions {
  config: Config;
  database: Database;
  clock?: Clock;
}

function websocketOrigins(origins: string[]): string[] {
  return origins.map((o) => o.replace(/^http/, 'ws'));
}

/** Builds the whole app without listening; tests call `app.inject()` on it. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const deps: AppDeps = { config, database, db: database.db, clock: options.clock ?? systemClock };

  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
          },
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  const allowedOrigins = [config.publicOrigin, ...config.corsOrigins];
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", ...websocketOrigins([config.publicOrigin])],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cors, {
    // Same-origin pages need no CORS; other origins only when configured.
    origin: config.corsOrigins.length > 0 ? config.corsOrigins : false,
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
  });
  await app.register(rateLimit, { global: false });

  app.decorate('allowedOrigins', allowedOrigins);

  await app.register(
    async (api) => {
      await api.register(healthRoutes(deps));
      await api.register(catalogRoutes(deps));
      await api.register(contactRoutes(deps));
    },
    { prefix: '/api/v1' },
  );

  await registerWebStatic(app, config);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Origins allowed to call the API from a browser and to open sockets. */
    allowedOrigins: string[];
  }
}
