import { createElement, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Builder, type BuildResult } from '../../src/generator/build.js';
import { bytesOf } from '../../src/output/copied-file.js';
import { formatError } from '../../src/core/errors.js';
import { authorComponentNames, contentComponents } from '../../src/theme/content/index.js';
import { chapter, createFixtureBook, type FixtureBook } from '../fixtures/fixture-book.js';

/**
 * The registry is the one place a component is added: the MDX guard allows what it lists and
 * rehype-react renders it. This test registers a component the book does not have, as an author
 * would (docs/authoring.md, "Adding a component"), and builds a fixture book that uses it.
 */
function Kbd({ keys = '' }: { keys?: string }): ReactNode {
  return createElement(
    'span',
    { className: 'kbd' },
    keys.split('+').map((key, i) => createElement('span', { key: i }, i > 0 && '+', createElement('kbd', null, key))),
  );
}
Kbd.attributes = ['keys'];

/** A block component with children: what the markdown inside it renders to is passed through. */
function Aside({ heading, children }: { heading?: string; children?: ReactNode }): ReactNode {
  return createElement('aside', { className: 'side-note' }, createElement('strong', null, heading), children);
}
Aside.attributes = ['heading'];

const BODY =
  'Press <Kbd keys="Ctrl+C" /> to stop the server.\n\n<Aside heading="Why">\n\nBecause **it** runs forever.\n\n</Aside>';

let fixture: FixtureBook | undefined;
afterEach(async () => {
  delete contentComponents.Kbd;
  delete contentComponents.Aside;
  await fixture?.remove();
  fixture = undefined;
});

async function build(body: string): Promise<BuildResult> {
  fixture = await createFixtureBook({ chapters: { en: { keys: chapter('Keys', body) } } });
  // One thread: the chapters compile in this process, which is the one that registered the components.
  return new Builder({ configPath: fixture.configPath, threads: 1 }).build();
}

async function buildError(body: string): Promise<string> {
  try {
    await build(body);
  } catch (error) {
    return formatError(error);
  }
  throw new Error('expected the build to fail');
}

const pageHtml = (result: BuildResult, file: string): string => {
  const contents = result.files.get(file);
  if (contents === undefined) throw new Error(`the build wrote no ${file}`);
  return typeof contents === 'string' ? contents : Buffer.from(bytesOf(contents)).toString('utf8');
};

describe('the chapter component registry (src/theme/content/components.ts)', () => {
  it("names the components authors may write: those with attributes, not the pipeline's own", () => {
    expect(authorComponentNames()).toEqual(['Compare', 'Tabs', 'TabItem', 'Hint', 'Answer']);
    for (const name of ['CodeBlock', 'Admonition', 'h2']) expect(contentComponents).toHaveProperty(name);
  });

  it('rejects a component that is not registered, at its line and column', async () => {
    expect(await buildError(BODY)).toMatch(
      /book\/en\/keys\.mdx:5:7: unknown component <Kbd>: chapters may use <Compare>, <Tabs>, <TabItem>, <Hint>, <Answer>\./,
    );
  });

  it('builds a fixture book with a newly registered component, rendered into the page as static HTML', async () => {
    contentComponents.Kbd = Kbd;
    contentComponents.Aside = Aside;
    const result = await build(BODY);
    const html = pageHtml(result, 'keys/index.html');
    expect(html).toContain(
      '<p>Press <span class="kbd"><span><kbd>Ctrl</kbd></span><span>+<kbd>C</kbd></span></span> to stop the server.</p>',
    );
    expect(html).toContain(
      '<aside class="side-note"><strong>Why</strong><p>Because <strong>it</strong> runs forever.</p></aside>',
    );
    // The Chinese page falls back to the English chapter and renders the same components.
    expect(pageHtml(result, 'zh-cn/keys/index.html')).toContain('<span class="kbd">');
  });

  it("checks a registered component's attributes as the built-in ones", async () => {
    contentComponents.Kbd = Kbd;
    expect(await buildError('Press <Kbd combo="Ctrl+C" /> now.')).toMatch(
      /book\/en\/keys\.mdx:5:7: <Kbd> has no attribute "combo" \(it accepts keys\)/,
    );
    expect(await buildError('Press <Kbd keys={1} /> now.')).toMatch(
      /keys\.mdx:5:7: attribute "keys" of <Kbd> must be a plain string in quotes/,
    );
  });
});
