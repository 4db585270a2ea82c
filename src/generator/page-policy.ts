import { createHash } from 'node:crypto';

const hashOf = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/**
 * The book's service worker (src/offline/) as the one worker a page may start: its path, on any
 * host, as workers are same-origin by rule (a script of another origin is refused whatever the
 * policy says), so the path pins the one script; blob: and every other script of the origin (a
 * GitHub Pages origin hosts other sites too) stay refused.
 */
const workerSource = (url: string) => `*:*${encodeURI(url).replace(/[;,]/g, (c) => encodeURIComponent(c))}`;

/**
 * The Content-Security-Policy of every page, as a <meta> (static hosts such as GitHub Pages set
 * no headers): the site's own scripts, modules, data and frames only. Inline scripts are allowed
 * by their hashes (the head's, and in watch mode the live-reload client's). The example runner's
 * sandbox frame is a page of the site with a stricter policy of its own
 * (src/runner/sandbox-document.ts). With the offline feature, the page may register the book's
 * service worker and start no other worker.
 */
export function pagePolicy(inlineScripts: string[], serviceWorker?: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${inlineScripts.map(hashOf).join(' ')}`,
    // React's style attributes and the theme's inline colour scheme.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self'",
    `worker-src ${serviceWorker ? workerSource(serviceWorker) : "'none'"}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}
