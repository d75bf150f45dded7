import {
  approveContactRequestSchema,
  approveContactResponseSchema,
  contactRequestResponseSchema,
  contactRequestsQuerySchema,
  contactRequestsResponseSchema,
  DEFAULT_OPEN_DAYS,
  type InvitationDelivery,
  idParamsSchema,
  isValidTimeZone,
  outboxResponseSchema,
  pageQuerySchema,
  platformOrganizationResponseSchema,
  platformOrganizationsResponseSchema,
  reviewPaymentsResponseSchema,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../core/access/auth-guard.js';
import { ROLES_OPERATOR } from '../../core/access/roles.js';
import { normalizeEmail } from '../../core/access/users.repository.js';
import { openDaysToMask } from '../../core/organizations.repository.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError, errorResponses } from '../../errors.js';
import { emailTaken, invitationChannels, inviteAccount } from '../onboarding/onboarding.module.js';
import {
  findContactRequest,
  handleContactRequest,
  listContactRequests,
  listOrganizations,
  listOutbox,
  listPaymentsToReview,
  setVerified,
} from './console.repository.js';

/** New organizations open 08:00–17:00 until their admin says otherwise. */
const DEFAULT_HOURS = { start: '08:00:00', end: '17:00:00' };

const requestNotFound = () =>
  new AppError(404, 'CONTACT_REQUEST_NOT_FOUND', 'No such contact request.');
const alreadyHandled = () =>
  new AppError(409, 'ALREADY_HANDLED', 'This request has already been approved or rejected.');
const organizationNotFound = () =>
  new AppError(404, 'ORGANIZATION_NOT_FOUND', 'No such organization.');

/** The operator console's API: every route is for operators (the platform team) only. */
export function consoleRoutes({ db, clock, config, guard }: AppDeps): FastifyPluginAsyncZod {
  const onRequest = guard.require(ROLES_OPERATOR);

  return async (app) => {
    app.get(
      '/platform/contact-requests',
      {
        onRequest,
        schema: {
          querystring: contactRequestsQuerySchema,
          response: { 200: contactRequestsResponseSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const { page, page_size, status } = req.query;
        const { total, items } = await listContactRequests(db, {
          status,
          page,
          pageSize: page_size,
        });
        return { contact_requests: items, page, page_size, total };
      },
    );

    app.post(
      '/platform/contact-requests/:id/approve',
      {
        onRequest,
        schema: {
          params: idParamsSchema,
          body: approveContactRequestSchema,
          response: {
            201: approveContactResponseSchema,
            ...errorResponses(400, 401, 403, 404, 409, 413, 415),
          },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const body = req.body;
        if (body.time_zone && !isValidTimeZone(body.time_zone)) {
          throw new AppError(
            400,
            'INVALID_TIME_ZONE',
            'Use an IANA time zone such as Africa/Douala.',
          );
        }
        const now = clock.now();
        let created: {
          organizationId: string;
          name: string;
          adminId: string;
          adminEmail: string;
          invitation: InvitationDelivery;
        };
        try {
          created = await db.transaction().execute(async (trx) => {
            const request = await handleContactRequest(
              trx,
              req.params.id,
              'approved',
              auth.user.id,
              now,
            );
            if (!request) {
              throw (await findContactRequest(trx, req.params.id))
                ? alreadyHandled()
                : requestNotFound();
            }
            const adminEmail = normalizeEmail(body.admin_email ?? request.user_email);
            const name = body.name ?? request.user_name.trim();
            const org = await trx
              .insertInto('organizations')
              .values({
                name,
                // The organization's e-mail is its first admin's: the sign-in identity.
                email: adminEmail,
                city: body.city ?? '',
                category: body.category ?? '',
                time_zone: body.time_zone ?? config.defaultTimeZone,
                start_time: DEFAULT_HOURS.start,
                end_time: DEFAULT_HOURS.end,
                // Monday to Friday until the admin confirms the days (unlisted until then):
                // seven days by default had a bank taking Sunday bookings.
                open_days: openDaysToMask(DEFAULT_OPEN_DAYS),
                open_days_confirmed: false,
                verified_at: null,
                contact_request_id: request.id,
                created_at: now,
                updated_at: now,
              })
              .returning(['id', 'name'])
              .executeTakeFirstOrThrow();
            const { user: admin, invitation } = await inviteAccount(trx, {
              email: adminEmail,
              name: body.admin_name ?? '',
              role: 'org_admin',
              organizationId: org.id,
              organizationName: org.name,
              publicOrigin: config.publicOrigin,
              now,
              ...invitationChannels(config, body.admin_phone),
            });
            return {
              organizationId: org.id,
              name: org.name,
              adminId: admin.id,
              adminEmail: admin.email,
              invitation,
            };
          });
        } catch (err) {
          // The organizations' and the accounts' e-mails are unique.
          if (isUniqueViolation(err)) throw emailTaken();
          throw err;
        }
        const contactRequest = await findContactRequest(db, req.params.id);
        if (!contactRequest) throw requestNotFound();
        reply.header('cache-control', 'no-store');
        return reply.status(201).send({
          contact_request: contactRequest,
          organization: { organization_id: created.organizationId, name: created.name },
          admin: { id: created.adminId, email: created.adminEmail },
          invitation: created.invitation,
        });
      },
    );

    app.post(
      '/platform/contact-requests/:id/reject',
      {
        onRequest,
        schema: {
          params: idParamsSchema,
          response: {
            200: contactRequestResponseSchema,
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const handled = await handleContactRequest(
          db,
          req.params.id,
          'rejected',
          auth.user.id,
          clock.now(),
        );
        const contactRequest = await findContactRequest(db, req.params.id);
        if (!contactRequest) throw requestNotFound();
        if (!handled) throw alreadyHandled();
        return { contact_request: contactRequest };
      },
    );

    app.get(
      '/platform/organizations',
      {
        onRequest,
        schema: {
          response: { 200: platformOrganizationsResponseSchema, ...errorResponses(401, 403) },
        },
      },
      async (_req, reply) => {
        reply.header('cache-control', 'no-store');
        return { organizations: await listOrganizations(db) };
      },
    );

    for (const action of ['verify', 'unverify'] as const) {
      app.post(
        `/platform/organizations/:id/${action}`,
        {
          onRequest,
          schema: {
            params: idParamsSchema,
            response: {
              200: platformOrganizationResponseSchema,
              ...errorResponses(400, 401, 403, 404),
            },
          },
        },
        async (req) => {
          const now = clock.now();
          const organization = await setVerified(
            db,
            req.params.id,
            action === 'verify' ? now : null,
            now,
          );
          if (!organization) throw organizationNotFound();
          return { organization };
        },
      );
    }

    app.get(
      '/platform/outbox',
      {
        onRequest,
        schema: {
          querystring: pageQuerySchema,
          response: { 200: outboxResponseSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (req, reply) => {
        // Bodies hold live sign-in links.
        reply.header('cache-control', 'no-store');
        const { page, page_size } = req.query;
        const smtpConfigured = config.mail.smtpUrl !== null;
        const { total, messages } = await listOutbox(db, page, page_size, smtpConfigured);
        return {
          messages,
          smtp_configured: smtpConfigured,
          sms_provider: config.sms.provider,
          page,
          page_size,
          total,
        };
      },
    );

    app.get(
      '/platform/payments/review',
      {
        onRequest,
        schema: {
          querystring: pageQuerySchema,
          response: { 200: reviewPaymentsResponseSchema, ...errorResponses(400, 401, 403) },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        const { page, page_size } = req.query;
        const { total, payments } = await listPaymentsToReview(db, page, page_size);
        return { payments, page, page_size, total };
      },
    );
  };
}
