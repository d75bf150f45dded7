import type { Role } from '@qless/contract';
import type { FastifyRequest } from 'fastify';

/** Who a request was from, as the audit log keeps it (a snapshot: accounts change later). */
export interface AuditActor {
  id: string;
  email: string;
  role: Role;
  /** The branch the account acted on (its own unless the request named another). */
  organization_id: string | null;
}

/**
 * Says who a request is from, for the audit log, before the request may be refused: the
 * auth guard calls it as soon as it found the session (so a 403 names its caller), and the
 * sign-in, reset and invitation routes once they found the account.
 */
export function noteActor(req: FastifyRequest, user: AuditActor): void {
  req.auditActor = {
    id: user.id,
    email: user.email,
    role: user.role,
    organization_id: user.organization_id,
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request is from for the audit log, when known before (or without) `auth`. */
    auditActor: AuditActor | null;
  }
}
