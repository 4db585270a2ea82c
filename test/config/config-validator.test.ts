import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { AJV_OPTIONS, schemaHashOf } from '../../src/config/load-config.js';

/**
 * The configuration validator that `npm run prepare` compiles (tools/compile-config-validator.mjs)
 * must be the schema's own: same hash, same verdicts and messages as ajv compiling it at start.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const schemaText = readFileSync(path.join(root, 'src', 'config', 'book.config.schema.json'), 'utf8');
const precompiledFile = path.join(root, 'dist', 'config', 'config-validator.cjs');

let precompiled: ValidateFunction & { schemaHash: string };
let compiled: ValidateFunction;

beforeAll(() => {
  if (!existsSync(path.join(root, 'dist', 'config', 'load-config.js'))) {
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      { cwd: root },
    );
  }
  // Made afresh from the current schema, as prepare makes it.
  execFileSync(process.execPath, [path.join(root, 'tools', 'compile-config-validator.mjs')], { cwd: root });
  precompiled = createRequire(import.meta.url)(precompiledFile) as typeof precompiled;
  compiled = new Ajv(AJV_OPTIONS).compile(JSON.parse(schemaText));
});

const realConfig = JSON.parse(readFileSync(path.join(root, 'book.config.json'), 'utf8')) as Record<string, unknown>;
const invalid: Array<[string, unknown]> = [
  ['an unknown field', { ...realConfig, colour: 'blue' }],
  ['a wrong type', { ...realConfig, basePath: 42 }],
  ['a missing field', Object.fromEntries(Object.entries(realConfig).filter(([key]) => key !== 'title'))],
  ['a bad sidebar item', { ...realConfig, sidebar: [{ type: 'category' }] }],
  ['a time limit out of range', { ...realConfig, runner: { timeLimitSeconds: -1 } }],
  ['not an object', ['book']],
];

describe('the precompiled configuration validator', () => {
  it('carries the hash of the schema it was compiled from', () => {
    expect(precompiled.schemaHash).toBe(schemaHashOf(schemaText));
    expect(schemaHashOf(`${schemaText} `)).not.toBe(precompiled.schemaHash);
  });

  it("accepts the real book's configuration", () => {
    expect(precompiled(realConfig)).toBe(true);
    expect(compiled(realConfig)).toBe(true);
  });

  it.each(invalid)('rejects %s with the errors ajv gives at start', (_, config) => {
    expect(precompiled(config)).toBe(false);
    expect(compiled(config)).toBe(false);
    expect(precompiled.errors!.length).toBeGreaterThan(0);
    expect(precompiled.errors).toEqual(compiled.errors);
  });
});
