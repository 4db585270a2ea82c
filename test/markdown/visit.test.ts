import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { EXIT, SKIP, visit } from '../../src/markdown/visit.js';

const parse = (text: string) => unified().use(remarkParse).parse(text);

describe('visit', () => {
  it('walks every node depth-first with its index and parent', () => {
    const tree = parse('# A\n\nSome *emphasis*.');
    const seen: string[] = [];
    visit(tree, (node, index, parent) => {
      seen.push(`${node.type}@${index ?? '-'}<${parent?.type ?? ''}`);
    });
    expect(seen).toEqual([
      'root@-<',
      'heading@0<root',
      'text@0<heading',
      'paragraph@1<root',
      'text@0<paragraph',
      'emphasis@1<paragraph',
      'text@0<emphasis',
      'text@2<paragraph',
    ]);
  });

  it('filters by type, skips children on SKIP and stops on EXIT', () => {
    const tree = parse('*a* *b*\n\n*c*');
    const texts: string[] = [];
    visit(tree, 'emphasis', (node) => {
      texts.push((node.children[0] as { value: string }).value);
      return SKIP;
    });
    expect(texts).toEqual(['a', 'b', 'c']);
    const first: string[] = [];
    visit(tree, 'text', (node) => {
      first.push(node.value);
      return EXIT;
    });
    expect(first).toEqual(['a']);
  });

  it('continues at the index a visitor returns after changing its parent', () => {
    const tree = parse('one\n\ntwo\n\nthree');
    const visited: string[] = [];
    visit(tree, 'paragraph', (node, index, parent) => {
      const text = (node.children[0] as { value: string }).value;
      visited.push(text);
      if (text === 'one') {
        parent!.children.splice(index!, 1);
        return [SKIP, index!];
      }
    });
    expect(visited).toEqual(['one', 'two', 'three']);
    expect(tree.children).toHaveLength(2);
  });
});
