/**
 * Watch mode's promise over generated attacks (fast-check): links put into the output folder
 * while the session runs, the user's own files beside the site, a chapter edited or deleted,
 * leftovers planted before it starts. Whatever happens, no file outside the output folder changes
 * (a link is never written through) and the user's files in it survive.
 */
import { existsSync, lstatSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runBuild } from '../../src/cli/build.js';
import { startWatch } from '../../src/cli/watch.js';
import { chapter } from '../fixtures/fixture-book.js';
import { attacks, createHostileProject, plant, snapshot } from './hostile-project.js';

const mayChange = (relative: string) =>
  /^project\/site($|\/|\.staging-|\.previous-)/.test(relative) ||
  relative.startsWith('project/node_modules/.cache') ||
  relative.startsWith('project/book/en/extra.mdx') ||
  relative.startsWith('project/book/en/intro.mdx');

type MidSession = 'page-folder-link' | 'page-file-link' | 'asset-folder-link' | 'user-file';

async function until(check: () => boolean, what: string, log: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; log:\n${log.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('pybook watch against generated hostile projects', () => {
  it("writes through no link put into the output folder, changes nothing outside it, and keeps the user's files", async () => {
    const midSession = fc.subarray(
      ['page-folder-link', 'page-file-link', 'asset-folder-link', 'user-file'] as MidSession[],
      { maxLength: 3 },
    );
    const edit = fc.constantFrom('edit-chapter' as const, 'delete-chapter' as const);
    await fc.assert(
      fc.asyncProperty(attacks(), midSession, edit, async (before, during, change) => {
        const project = createHostileProject({ withNodeModules: true });
        // An unlisted chapter that the session may delete.
        writeFileSync(
          path.join(project.project, 'book', 'en', 'extra.mdx'),
          chapter('Extra', 'An unlisted page.', { unlisted: true }),
        );
        const log: string[] = [];
        let session: Awaited<ReturnType<typeof startWatch>> | undefined;
        try {
          if (before.prebuilt)
            await runBuild({ config: project.configPath, outDir: project.outDir, quiet: true }).catch(() => {});
          // Only what leaves the book buildable: the build's own attacks run in build-invariants.
          plant(project, {
            ...before,
            config: 'plain',
            links: before.links.filter((l) => l.startsWith('site') || l === 'out-dir-link'),
            userFiles: [],
          });
          const outsideBefore = snapshot(project.sandbox, mayChange);
          try {
            session = await startWatch(
              { config: project.configPath, outDir: project.outDir, port: 0, host: '127.0.0.1' },
              (line) => log.push(line),
            );
          } catch {
            // Refused (the folder holds what pybook did not write): nothing may have changed either.
            expect(snapshot(project.sandbox, mayChange)).toEqual(outsideBefore);
            return;
          }
          const users = new Map<string, string>();
          for (const kind of during) {
            const at = (name: string) => path.join(project.outDir, name);
            if (kind === 'page-folder-link') {
              rmSync(at('intro'), { recursive: true, force: true });
              symlinkSync(path.join(project.outside, 'dir'), at('intro'));
            }
            // (Not through the folder link of the attack above, which would plant outside the folder itself.)
            if (kind === 'page-file-link' && !lstatSync(at('intro')).isSymbolicLink()) {
              rmSync(at('intro/index.html'), { force: true });
              symlinkSync(path.join(project.outside, 'secret.txt'), at('intro/index.html'));
            }
            if (kind === 'asset-folder-link') {
              rmSync(at('assets/pages'), { recursive: true, force: true });
              symlinkSync(path.join(project.outside, 'dir'), at('assets/pages'));
            }
            if (kind === 'user-file') {
              writeFileSync(at('my-notes.txt'), 'mine');
              users.set('my-notes.txt', 'mine');
            }
          }
          const rebuilds = log.filter((line) => line.startsWith('rebuilt') || line.startsWith('error')).length;
          if (change === 'edit-chapter')
            writeFileSync(
              path.join(project.project, 'book', 'en', 'intro.mdx'),
              chapter('Intro', '## Start\n\nEdited.'),
            );
          else unlinkSync(path.join(project.project, 'book', 'en', 'extra.mdx'));
          await until(
            () => log.filter((line) => line.startsWith('rebuilt') || line.startsWith('error')).length > rebuilds,
            'the rebuild',
            log,
          );
          await session.close();
          session = undefined;
          expect(
            snapshot(project.sandbox, mayChange),
            `before ${JSON.stringify(before)}, during ${during.join(',')}, ${change}\n${log.join('\n')}`,
          ).toEqual(outsideBefore);
          for (const [name, text] of users) expect(readFileSync(path.join(project.outDir, name), 'utf8')).toBe(text);
          for (const secret of [
            path.join(project.outside, 'secret.txt'),
            path.join(project.outside, 'dir', 'notes.md'),
          ]) {
            expect(readFileSync(secret, 'utf8')).toContain(project.secret);
          }
          if (existsSync(project.outDir)) expect(lstatSync(project.outDir).isDirectory()).toBe(true);
        } finally {
          await session?.close();
          project.remove();
        }
      }),
      { numRuns: 8 },
    );
  }, 900_000);
});
