/**
 * The output folder's promise, as an invariant over generated attacks (fast-check): whatever a
 * manifest, a journal, a planted leftover folder, a link or the config says, `pybook build`
 * (1) changes no file outside the output folder but its own cache and the leftovers it proves
 * its own, (2) changes no file inside the output folder that it did not write (the user's files
 * survive, or the build refuses), and (3) publishes nothing from outside the project.
 */
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runBuild } from '../../src/cli/build.js';
import {
  attacks,
  createHostileProject,
  plant,
  snapshot,
  type Attacks,
  type HostileProject,
} from './hostile-project.js';

/** What the build may change outside the output folder: its cache, and leftovers named like its own. */
const mayChange = (relative: string) =>
  /^project\/site($|\/|\.staging-|\.previous-)/.test(relative) ||
  relative.startsWith('project/node_modules/.cache') ||
  relative.startsWith('project/site-linked');

/** The files of the output folder the user put there (or changed): each must survive as it was. */
function userFilesIn(project: HostileProject, a: Attacks): Map<string, string> {
  const kept = new Map<string, string>();
  if (!existsSync(project.outDir) || lstatSync(project.outDir).isSymbolicLink()) return kept;
  for (const { name } of a.userFiles) {
    const file = path.join(project.outDir, name);
    try {
      if (lstatSync(file).isFile()) kept.set(name, readFileSync(file, 'utf8'));
    } catch {
      // not written (a link was in the way)
    }
  }
  return kept;
}

async function build(project: HostileProject): Promise<unknown> {
  try {
    await runBuild({ config: project.configPath, outDir: project.outDir, quiet: true });
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('pybook build against generated hostile projects', () => {
  it('changes nothing outside the output folder, nothing in it that it did not write, and publishes nothing from outside the project', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), attacks(), async (withNodeModules, plan) => {
        const project = createHostileProject({ withNodeModules });
        try {
          if (plan.prebuilt) await build(project);
          plant(project, plan);
          const before = snapshot(project.sandbox, mayChange);
          const users = userFilesIn(project, plan);
          const error = await build(project);

          // (1) Outside the output folder: byte for byte as before (the victims, the book, the config).
          expect(
            snapshot(project.sandbox, mayChange),
            `attacks: ${JSON.stringify(plan)}\nbuild: ${String(error)}`,
          ).toEqual(before);
          // (2) The user's files in the output folder: still there, unchanged.
          for (const [name, text] of users)
            expect(readFileSync(path.join(project.outDir, name), 'utf8'), `${name} after ${JSON.stringify(plan)}`).toBe(
              text,
            );
          // (3) A site it wrote holds nothing of outside the project, and no link. (A refused build
          // leaves the folder as it was, the attacker's link included: that is not pybook's output.)
          if (error === undefined) {
            for (const [name, state] of snapshot(project.outDir)) {
              expect(state.startsWith('link'), `${name} is a link in the site`).toBe(false);
              expect(
                readFileSync(path.join(project.outDir, name), 'utf8').includes(project.secret),
                `${name} holds a file from outside the project`,
              ).toBe(false);
            }
          }
        } finally {
          project.remove();
        }
      }),
      { numRuns: 24 },
    );
  });
});
