import { createHash } from 'node:crypto';

const hashOf = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/**
 * The Content-Security-Policy of every page, as a <meta> (static hosts such as GitHub Pages set
 * no headers): the site's own scripts, modules, data and frames only. Inline scripts are allowed
 * by their hashes (the head's, and in watch mode the live-reload client's). The example runner's sandbox frame is a page of the site with a stricter
 * policy of its own (src/runner/sandbox-document.ts).
 */
export function pagePolicy(inlineScripts: string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${inlineScripts.map(hashOf).join(' ')}`,
    // React's style attributes and the theme's inline colour scheme.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self'",
    "worker-src 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}
