import { Children, isValidElement, type ReactNode } from 'react';
import { format } from '../../shared/i18n/plural.js';
import { useContent } from './content-context.js';

/** The plain text of rendered heading content (for the label of its link). */
function textOf(node: ReactNode): string {
  return Children.toArray(node)
    .map((child) => {
      if (typeof child === 'string' || typeof child === 'number') return String(child);
      if (isValidElement<{ children?: ReactNode }>(child)) return textOf(child.props.children);
      return '';
    })
    .join('');
}

/**
 * h2-h6 with a "#" link to itself, so readers can copy a link to the section. Screen readers hear
 * "Direct link to <heading>", not the raw slug.
 */
export function makeHeading(Tag: 'h2' | 'h3' | 'h4' | 'h5' | 'h6') {
  return function Heading({ id, children }: { id?: string; children?: ReactNode }) {
    const { strings } = useContent();
    const label = format(strings.headingLink, { heading: textOf(children).trim() });
    return (
      <Tag id={id} className="anchor">
        {children}
        {id && (
          <a className="hash-link" href={`#${id}`} aria-label={label} title={label}>
            #
          </a>
        )}
      </Tag>
    );
  };
}
