import multipart, { type Multipart } from '@fastify/multipart';
import {
  organizationScopeQuerySchema,
  uploadResponseSchema,
  withFieldCodes,
} from '@qless/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../core/access/auth-guard.js';
import { ROLES_ADMIN, targetOrganization } from '../../core/access/roles.js';
import { findOrganization } from '../../core/organizations.repository.js';
import { AppError, errorResponses, notFound } from '../../errors.js';
import { limiter } from '../../limits/limiter.js';
import { invalidImage, MAX_UPLOAD_BYTES, normalizeImage } from './image-normalizer.js';
import { UPLOAD_NAME_PATTERN, type UploadStorage } from './upload-storage.js';
import { findUpload, insertUpload, uploadUrl } from './uploads.repository.js';

/** Room for the multipart framing and the spec client's `upload_preset` field. */
const FRAMING_BYTES = 16 * 1024;

const fileParams = withFieldCodes(z.object({ file: z.string().max(100) }), { file: 'NOT_FOUND' });

const tooLarge = () =>
  new AppError(413, 'PAYLOAD_TOO_LARGE', 'The image is larger than 2 MB. Choose a smaller one.');

/**
 * What a multipart limit (the options registered below) that was reached says to the sender:
 * each says what was wrong. They all come as 413 from @fastify/multipart, but only the file
 * size is about the image being too large.
 */
function multipartLimitError(code: unknown): AppError | null {
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_FILES_LIMIT':
      return new AppError(400, 'TOO_MANY_FILES', 'Send one image at a time, in the field "file".');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError(
        400,
        'TOO_MANY_FIELDS',
        'The form has too many fields. Send the image in the field "file" and nothing else.',
      );
    default:
      return null;
  }
}

/**
 * The bytes of the one file field `file`, at most MAX_UPLOAD_BYTES; other fields (the spec
 * client's upload_preset) and files in other fields are skipped, within the limits of the
 * multipart options. A body that is not well-formed multipart is the sender's mistake: 400,
 * never a 500.
 */
async function readFileField(parts: AsyncIterable<Multipart>): Promise<Buffer | null> {
  let received: Buffer | null = null;
  try {
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file' || received) {
        part.file.resume();
        continue;
      }
      // Bounded: busboy stops at fileSize and toBuffer then throws.
      received = await part.toBuffer();
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const limitReached = multipartLimitError((err as { code?: unknown }).code);
    if (limitReached) throw limitReached;
    if ((err as { statusCode?: number }).statusCode === 413) throw tooLarge();
    throw new AppError(
      400,
      'INVALID_BODY',
      'Send the image as multipart/form-data in the field "file".',
    );
  }
  return received;
}

/**
 * Logo uploads: POST stores an admin's image (checked by decoding, re-encoded without
 * metadata, under a random name); GET serves it to anyone (logos are on public pages).
 */
export function uploadsRoutes(deps: AppDeps, storage: UploadStorage): FastifyPluginAsyncZod {
  const { db, clock, config, guard } = deps;
  const notFoundFile = () => notFound('NOT_FOUND', 'No such file.');
  const limits = limiter(db, clock, config);

  return async (app) => {
    // Registered here, so only this plugin's routes take multipart bodies.
    await app.register(multipart, {
      throwFileSizeLimit: true,
      limits: {
        fileSize: MAX_UPLOAD_BYTES,
        files: 1,
        fields: 5,
        fieldSize: 1024,
        parts: 6,
        headerPairs: 20,
      },
    });

    app.post(
      '/uploads',
      {
        config: { touchesCatalog: false },
        // The guard is an onRequest hook: nobody unauthenticated gets a byte of body read.
        onRequest: guard.require(ROLES_ADMIN),
        // A declared length over the limit is refused before the body is read too.
        preParsing: async (req) => {
          const declared = Number(req.headers['content-length'] ?? 0);
          if (declared > MAX_UPLOAD_BYTES + FRAMING_BYTES) throw tooLarge();
        },
        schema: {
          querystring: organizationScopeQuerySchema,
          response: {
            201: uploadResponseSchema,
            ...errorResponses(400, 401, 403, 404, 413, 415, 429),
          },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const organizationId = targetOrganization(auth, req.query.organization_id);
        if (!(await findOrganization(db, organizationId))) {
          throw notFound('ORGANIZATION_NOT_FOUND', 'No such organization.');
        }
        if (!req.isMultipart()) {
          throw new AppError(
            415,
            'UNSUPPORTED_MEDIA_TYPE',
            'Send the image as multipart/form-data in the field "file".',
          );
        }
        // Counted before the body is read or decoded: each upload costs decoding work and
        // a stored file that nothing deletes, so one admin session cannot fill the disk.
        await limits.enforce(reply, [{ limit: 'uploads-per-organization', of: organizationId }]);
        const received = await readFileField(req.parts());
        if (!received || received.length === 0) throw invalidImage();

        const image = await normalizeImage(received);
        await storage.save(image.fileName, image.data);
        try {
          await insertUpload(db, {
            organizationId,
            fileName: image.fileName,
            contentType: image.contentType,
            bytes: image.data.length,
            createdBy: auth.user.id,
            now: clock.now(),
          });
        } catch (err) {
          await storage.remove(image.fileName).catch(() => undefined);
          throw err;
        }
        reply.status(201).header('cache-control', 'no-store');
        return { secure_url: uploadUrl(config.publicOrigin, image.fileName) };
      },
    );

    app.get(
      '/uploads/:file',
      {
        schema: {
          params: fileParams,
          // The image's bytes: Fastify sends a Buffer as it is, no serializer involved.
          response: {
            200: z.custom<Buffer>((v) => Buffer.isBuffer(v)),
            ...errorResponses(400, 404),
          },
        },
      },
      async (req, reply) => {
        const name = req.params.file;
        if (!UPLOAD_NAME_PATTERN.test(name)) throw notFoundFile();
        const upload = await findUpload(db, name);
        if (!upload) throw notFoundFile();
        const data = await storage.read(name);
        if (!data) throw notFoundFile();
        return (
          reply
            .header('content-type', upload.content_type)
            .header('x-content-type-options', 'nosniff')
            // A name is never reused for other content: cache it for good.
            .header('cache-control', 'public, max-age=31536000, immutable')
            // Public logos may be shown by our pages on another configured origin too.
            .header('cross-origin-resource-policy', 'cross-origin')
            .send(data)
        );
      },
    );
  };
}
