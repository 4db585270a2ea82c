import { createHash } from 'node:crypto';

/**
 * What the sandbox document allows: its own script (by hash), blob-URL workers and modules,
 * eval (running the reader's JavaScript is the point) and WebAssembly; and no request of any kind,
 * to any origin, the site's own included. Workers started from blob URLs inherit this policy.
 */
export function sandboxPolicy(scriptHash: string): string {
  return [
    "default-src 'none'",
    `script-src '${scriptHash}' blob: 'unsafe-eval' 'wasm-unsafe-eval'`,
    'worker-src blob:',
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * The sandbox document (assets/runner/sandbox.<hash>/index.html): the page loads it into an iframe with
 * sandbox="allow-scripts", which gives it an opaque origin; its CSP is a <meta>, so that it holds
 * on any static host. `script` is the bundled client/runner/sandbox-host.ts.
 */
export function sandboxDocument(script: string): string {
  // No "</" inside the element: the script cannot end early.
  const inline = script.replace(/<\//g, '<\\/');
  const hash = `sha256-${createHash('sha256').update(inline).digest('base64')}`;
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${sandboxPolicy(hash)}"><title>pybook sandbox</title></head><body><script>${inline}</script></body></html>\n`;
}
