import path from 'node:path';
import type { ApiModule, AppDeps } from '../../app-deps.js';
import { localUploadStorage, type UploadStorage } from './upload-storage.js';
import { uploadsRoutes } from './uploads.routes.js';

export type { UploadStorage } from './upload-storage.js';
export { findUpload, uploadNameOf, uploadUrl } from './uploads.repository.js';

/** Organizations' logos: kept in `storage` (default DATA_DIR/uploads on local disk). */
export function uploadsModule(deps: AppDeps, storage?: UploadStorage): ApiModule {
  return {
    routes: [
      uploadsRoutes(deps, storage ?? localUploadStorage(path.join(deps.config.dataDir, 'uploads'))),
    ],
  };
}
