/**
 * `npm run prepare`, after tsc: compiles book.config.json's schema into ajv's standalone
 * validator, dist/config/config-validator.cjs, so that no command loads ajv and compiles the
 * schema at start (some 140 ms). The file carries the hash of the schema it was compiled from:
 * load-config.ts uses it only for that very schema, and compiles the schema itself otherwise.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { AJV_OPTIONS, schemaHashOf } from '../dist/config/load-config.js';

const schemaText = readFileSync(new URL('../src/config/book.config.schema.json', import.meta.url), 'utf8');
const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true } });
const code = standaloneCode.default(ajv, ajv.compile(JSON.parse(schemaText)));
const out = fileURLToPath(new URL('../dist/config/config-validator.cjs', import.meta.url));
writeFileSync(out, `${code}\nmodule.exports.schemaHash = ${JSON.stringify(schemaHashOf(schemaText))};\n`);
