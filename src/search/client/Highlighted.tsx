import type { TextPart } from '../shared/highlight.js';

/** Text with its matches in <mark>: React text nodes only, so markup in a chapter stays text. */
export function Highlighted({ parts }: { parts: TextPart[] }) {
  return (
    <>
      {parts.map((part, i) =>
        part.match ? (
          <mark key={i} className="search-match">
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
