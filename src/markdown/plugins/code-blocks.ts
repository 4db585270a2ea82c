import type { Code, Root, Parent } from 'mdast';
import type { VFile } from 'vfile';
import { SKIP, visit } from '../visit.js';
import { CODE_LANGUAGES, canonicalLanguage } from '../highlight/index.js';
import type { CodeExample } from '../../shared/model/chapter.js';
import { errorAt } from './located-error.js';
import { exampleKey, exerciseKey, isOfferedToRun } from '../../runner/build/browser-check-file.js';
import {
  collectExercise,
  EXERCISE_PARTS,
  ExerciseFormatError,
  type ExercisePart,
  type MarkedBlock,
} from '../../exercise/shared/collect.js';

export interface CodeMeta {
  title?: string;
  highlight: Set<number>;
  norun?: string;
  /** Runs with python3 and node, but not in the reader's browser: why (shown beside the block). */
  nobrowser?: string;
  raises?: string;
  /** Arguments for pytest: the block is a test file that `pybook check` runs with pytest. */
  pytest?: string;
  /** Which part of the chapter's exercise the block is (src/exercise/). */
  exercise?: ExercisePart;
}

const META_TOKEN = /\s*(?:(\w+)="([^"]*)"|\{([\d,\s-]+)\}|(\w+)(?=\s|$))/y;
const META_KEYS = new Set(['title', 'norun', 'nobrowser', 'raises', 'pytest', 'exercise']);
/** Options that may also stand alone, without a value. */
const META_FLAGS = new Set(['pytest']);

/**
 * Parses `title="a.py" {1,3-5} norun="reason"`; throws a message naming what is wrong.
 * Highlighted lines must exist in the block (`lineCount` lines).
 */
export function parseCodeMeta(meta: string | null | undefined, lineCount = Number.POSITIVE_INFINITY): CodeMeta {
  const result: CodeMeta = { highlight: new Set() };
  const text = (meta ?? '').trim();
  META_TOKEN.lastIndex = 0;
  while (META_TOKEN.lastIndex < text.length) {
    const match = META_TOKEN.exec(text);
    if (!match)
      throw new Error(
        `cannot read the code block options "${text}": write title="file.py", {1,3-5}, norun="reason", nobrowser="reason", raises="Error" or pytest`,
      );
    if (match[3] !== undefined) {
      for (const range of match[3]
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean)) {
        const [from, to = from] = range.split('-').map(Number);
        if (!(from >= 1 && to >= from)) throw new Error(`line range "${range}" is not valid`);
        if (to > lineCount)
          throw new Error(
            `line range "${range}" goes past the end of the block (${lineCount} line${lineCount === 1 ? '' : 's'})`,
          );
        for (let n = from; n <= to; n++) result.highlight.add(n);
      }
    } else if (match[4] !== undefined) {
      if (!META_FLAGS.has(match[4]))
        throw new Error(
          `unknown code block option "${match[4]}" (known: title="…", norun="…", nobrowser="…", raises="…", pytest, {lines})`,
        );
      (result as unknown as Record<string, string>)[match[4]] = '';
    } else {
      const key = match[1];
      if (!META_KEYS.has(key))
        throw new Error(`unknown code block option "${key}" (known: title, norun, nobrowser, raises, pytest, {lines})`);
      if (key === 'norun' && !match[2].trim()) throw new Error('norun needs a reason: norun="needs the network"');
      if (key === 'exercise' && !(EXERCISE_PARTS as readonly string[]).includes(match[2]))
        throw new Error(
          `exercise="${match[2]}" is not a part of an exercise: write exercise="starter", exercise="tests", exercise="answer" or exercise="trap"`,
        );
      if (key === 'nobrowser' && !match[2].trim())
        throw new Error('nobrowser needs a reason, shown to readers: nobrowser="starts a subprocess"');
      (result as unknown as Record<string, string>)[key] = match[2];
    }
  }
  return result;
}

/**
 * Turns fenced code into CodeBlock components (highlighted at build time), attaches the
 * ```output block that follows a block to it, and records every block for `pybook check`.
 */
export function remarkCodeBlocks() {
  return (tree: Root, file: VFile) => {
    const examples: CodeExample[] = [];
    const exerciseBlocks: MarkedBlock[] = [];
    let starterNode: Code | undefined;
    visit(tree, 'code', (node: Code, index, parent: Parent | undefined) => {
      if (!parent || index === undefined) return;
      const lang = (node.lang ?? 'text').toLowerCase();
      if (!(lang in CODE_LANGUAGES)) {
        throw errorAt(
          file,
          node,
          `unsupported code language "${lang}": use one of ${Object.keys(CODE_LANGUAGES).join(', ')}`,
        );
      }
      if (lang === 'output')
        throw errorAt(file, node, 'an ```output block must directly follow the code block whose output it shows');
      let meta: CodeMeta;
      try {
        meta = parseCodeMeta(node.meta, node.value.split('\n').length);
        if (meta.pytest !== undefined && canonicalLanguage(lang) !== 'python')
          throw new Error('pytest applies to python blocks only');
        if (meta.exercise !== undefined && canonicalLanguage(lang) !== 'python')
          throw new Error('exercise applies to python blocks only');
        if (
          meta.exercise !== undefined &&
          meta.exercise !== 'answer' &&
          (meta.norun !== undefined || meta.pytest !== undefined || meta.raises !== undefined)
        ) {
          throw new Error(
            `an exercise="${meta.exercise}" block is run by the exercise check only: it takes no norun, pytest or raises`,
          );
        }
      } catch (error) {
        throw errorAt(file, node, (error as Error).message);
      }
      const next = parent.children[index + 1];
      let output: string | undefined;
      if (next?.type === 'code' && next.lang === 'output') {
        output = next.value;
        parent.children.splice(index + 1, 1);
      }
      const canonical = canonicalLanguage(lang);
      if (meta.nobrowser !== undefined && !(canonical === 'python' || canonical === 'javascript')) {
        throw errorAt(file, node, 'nobrowser applies to python and javascript blocks only');
      }
      const example: CodeExample = {
        lang: canonical,
        code: node.value,
        line: node.position?.start.line ?? 0,
        ...(output !== undefined ? { output } : {}),
        ...(meta.norun !== undefined ? { norun: meta.norun } : {}),
        ...(meta.nobrowser !== undefined ? { nobrowser: meta.nobrowser } : {}),
        ...(meta.raises !== undefined ? { raises: meta.raises } : {}),
        ...(meta.title !== undefined ? { title: meta.title } : {}),
        ...(meta.pytest !== undefined ? { pytest: meta.pytest } : {}),
      };
      if (meta.exercise !== undefined)
        exerciseBlocks.push({ part: meta.exercise, code: node.value, line: example.line });
      // A trap (a plausible wrong answer the check runs the tests on) is the author's, not the reader's: not shown.
      if (meta.exercise === 'trap') {
        if (output !== undefined)
          throw errorAt(file, node, 'an exercise="trap" block takes no output block: it is never shown');
        parent.children.splice(index, 1);
        return [SKIP, index];
      }
      // Starter code and tests are not examples of their own: the exercise check runs them together.
      const standalone = meta.exercise === undefined || meta.exercise === 'answer';
      if (standalone && isOfferedToRun(example)) example.key = exampleKey(example);
      if (standalone) examples.push(example);
      node.data = {
        ...node.data,
        codeBlock: { lang, canonical, meta, output, exampleKey: example.key },
      } as Code['data'];
      if (meta.exercise === 'starter') starterNode = node;
      return SKIP;
    });
    file.data.examples = examples;
    try {
      file.data.exercise = collectExercise(exerciseBlocks);
    } catch (error) {
      if (!(error instanceof ExerciseFormatError)) throw error;
      const at = { line: error.line, column: 1 };
      throw errorAt(file, { type: 'code', position: { start: at, end: at } }, error.message);
    }
    // The starter block carries the tests, which the page's Check runs against the reader's code.
    if (file.data.exercise) {
      Object.assign((starterNode!.data as { codeBlock: object }).codeBlock, {
        exerciseTests: file.data.exercise.tests,
        exerciseKey: exerciseKey(file.data.exercise),
      });
    }
  };
}
