import type { ReactNode } from 'react';
import { useContent } from './content-context.js';

type Kind = 'note' | 'tip' | 'info' | 'warning' | 'danger';
const ICONS: Record<Kind, string> = { note: 'ℹ', tip: '💡', info: 'ℹ', warning: '⚠', danger: '🔥' };

/** `:::kind[title]` containers. */
export function Admonition({ kind = 'note', title, children }: { kind?: Kind; title?: string; children?: ReactNode }) {
  const { strings } = useContent();
  return (
    <div className={`admonition admonition-${kind}`} role="note">
      <p className="admonition-heading">
        <span className="admonition-icon" aria-hidden="true">
          {ICONS[kind] ?? ICONS.note}
        </span>
        {title ?? strings.admonition[kind] ?? kind}
      </p>
      <div className="admonition-content">{children}</div>
    </div>
  );
}
