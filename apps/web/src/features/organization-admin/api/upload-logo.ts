import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** Multipart upload of one image (field `file`); answers the URL it is served at. */
export async function uploadLogo(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  const body = await apiFetch<{ secure_url: string }>(apiPaths.uploads(), {
    method: 'POST',
    body: form,
  });
  return body.secure_url;
}
