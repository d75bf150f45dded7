import { boardJoinCodeSchema, withFieldCodes } from '@qless/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/schema.js';
import { AppError, errorResponses } from '../../errors.js';
import type { Limiter } from '../../limits/limiter.js';
import { findBoardByToken } from './hall-links.js';
import { type JoinCodes, joinCodeRefused } from './join-code.js';

const tokenParams = withFieldCodes(z.object({ token: z.string().max(100) }), {
  token: 'BOARD_NOT_FOUND',
});

/**
 * A join that must carry the hall's code (decision 125): the try is counted per address
 * before the code is checked, so tries sent at once cannot all pass; a right code is given
 * back (it is not a wrong try). 429 TOO_MANY_JOIN_CODE_TRIES past the limit, 403
 * JOIN_CODE_INVALID for a missing, malformed, wrong or too old code.
 */
export async function assertJoinCode(
  reply: FastifyReply,
  limits: Limiter,
  codes: JoinCodes,
  join: { organizationId: string; code: string | undefined; address: string },
): Promise<void> {
  const tries = await limits.reserve(reply, [{ limit: 'queue-join-code-tries', of: join.address }]);
  if (!codes.accepts(join.organizationId, join.code)) throw joinCodeRefused();
  await tries.succeeded();
}

/**
 * GET /board/{token}/join-code: the code the board in the hall shows (decision 125), read
 * with the board's own token like its snapshot; asked again at `changes_at`, since the hub
 * pushes on queue changes only.
 */
export function joinCodeRoutes(
  db: Db,
  codes: JoinCodes,
  sms: { todayOf(organizationId: string): Promise<string | null>; number: string | null },
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/board/:token/join-code',
      {
        schema: {
          params: tokenParams,
          response: { 200: boardJoinCodeSchema, ...errorResponses(400, 404) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const board = await findBoardByToken(db, req.params.token);
        const org = board
          ? await db
              .selectFrom('organizations')
              .select(['queue_join_enabled', 'queue_join_code'])
              .where('id', '=', board.organization_id)
              .executeTakeFirst()
          : undefined;
        if (!board || !org) {
          throw new AppError(
            404,
            'BOARD_NOT_FOUND',
            'This board link does not exist or was revoked.',
          );
        }
        const { code, changesAt } = codes.current(board.organization_id);
        const shown = org.queue_join_enabled && org.queue_join_code;
        // Joining by SMS (decision 136): the word and the day's code, shown only in the hall.
        const text = sms.number ? await sms.todayOf(board.organization_id) : null;
        return {
          required: org.queue_join_code,
          code: shown ? code : null,
          changes_at: changesAt.toISOString(),
          sms: text && sms.number ? { text, number: sms.number } : null,
        };
      },
    );
  };
}
