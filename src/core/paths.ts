import path from 'node:path';

/** True when `child` lies strictly inside `folder` (both absolute, already resolved). */
export function isInsideFolder(child: string, folder: string): boolean {
  return child !== folder && child.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);
}
