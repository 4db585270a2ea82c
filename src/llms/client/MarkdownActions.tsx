import type { MarkdownStrings } from '../../shared/i18n/types.js';

/**
 * A chapter header's actions on the chapter's Markdown (src/llms/): a link to the file, which
 * works without JavaScript, and a button that copies the file, offered only where scripts run
 * (html.js). Everything the copy does (copy-markdown.ts: fetching, the clipboard, saying
 * "Copied") is a chunk of its own, fetched on the first click: the first load carries only this
 * markup and the click's import.
 */
export function MarkdownActions({ href, strings }: { href: string; strings: MarkdownStrings }) {
  return (
    <p className="markdown-actions">
      <a className="markdown-link" href={href} type="text/markdown">
        {strings.view}
      </a>
      <button
        type="button"
        className="markdown-copy"
        data-copied={strings.copied}
        data-failed={strings.copyFailed}
        onClick={(event) => {
          const button = event.currentTarget;
          void import('./copy-markdown.js').then((chunk) => chunk.copyPageMarkdown(button, href));
        }}
      >
        {strings.copy}
      </button>
      <span className="visually-hidden" role="status" />
    </p>
  );
}
