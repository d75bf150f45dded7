import type { Db } from '../../db/schema.js';
import { UPLOAD_NAME_PATTERN } from './upload-storage.js';

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

/** The path under which GET serves an upload. */
const UPLOAD_PATH = '/api/v1/uploads/';

/** The absolute URL of an upload on our public origin (the `secure_url` we answer). */
export function uploadUrl(publicOrigin: string, fileName: string): string {
  return new URL(`${UPLOAD_PATH}${fileName}`, publicOrigin).toString();
}

/** The file name of a URL that uploadUrl could have made, else null. */
export function uploadNameOf(publicOrigin: string, url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url, publicOrigin);
  } catch {
    return null;
  }
  if (parsed.origin !== new URL(publicOrigin).origin || parsed.search || parsed.hash) return null;
  if (!parsed.pathname.startsWith(UPLOAD_PATH)) return null;
  const name = parsed.pathname.slice(UPLOAD_PATH.length);
  return UPLOAD_NAME_PATTERN.test(name) ? name : null;
}

export async function insertUpload(
  db: Db,
  upload: {
    organizationId: string;
    fileName: string;
    contentType: ImageType;
    bytes: number;
    createdBy: string;
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto('uploads')
    .values({
      organization_id: upload.organizationId,
      file_name: upload.fileName,
      content_type: upload.contentType,
      bytes: upload.bytes,
      created_by: upload.createdBy,
      created_at: upload.now,
    })
    .execute();
}

export function findUpload(db: Db, fileName: string) {
  return db
    .selectFrom('uploads')
    .select(['organization_id', 'file_name', 'content_type', 'bytes'])
    .where('file_name', '=', fileName)
    .executeTakeFirst();
}
