import type { ReactNode } from 'react';

/** h2-h6 with a "#" link to itself, so readers can copy a link to the section. */
export function makeHeading(Tag: 'h2' | 'h3' | 'h4' | 'h5' | 'h6') {
  return function Heading({ id, children }: { id?: string; children?: ReactNode }) {
    return (
      <Tag id={id} className="anchor">
        {children}
        {id && <a className="hash-link" href={`#${id}`} aria-label={`#${id}`} title={`#${id}`}>#</a>}
      </Tag>
    );
  };
}
