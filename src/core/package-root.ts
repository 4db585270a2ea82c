import { fileURLToPath } from 'node:url';

/**
 * pybook's own folder (where package.json is), from this module's place: two folders below it in
 * src/ (src/shared/), in dist/ (dist/shared/) and in the CLI bundle (dist/bundle/), so modules
 * at any depth find the package's files through this one constant.
 */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
