/** The uploads module's public face: what the rest of the API may use of it. */
export { localUploadStorage, type UploadStorage } from './upload-storage.js';
export { findUpload, uploadNameOf, uploadUrl } from './uploads.repository.js';
export { uploadsRoutes } from './uploads.routes.js';
