import { createHash } from 'node:crypto';

/**
 * What the sandbox document allows: its own script (by hash; the launcher's policy names its own too), blob-URL workers and modules,
 * eval (running the reader's JavaScript is the point) and WebAssembly; and no request of any kind,
 * to any origin, the site's own included. Workers started from blob URLs inherit this policy.
 */
export function sandboxPolicy(...scriptHashes: string[]): string {
  return [
    "default-src 'none'",
    `script-src ${scriptHashes.map((hash) => `'${hash}'`).join(' ')} blob: 'unsafe-eval' 'wasm-unsafe-eval'`,
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

/**
 * The sandbox document's launcher (assets/runner/launcher.<hash>/index.html), for pages a
 * service worker controls (src/offline/): browsers route no request of an opaque-origin frame
 * through the worker, so offline the sandbox document could not load. The page frames this
 * document instead, a plain same-origin frame the worker can serve; it holds the sandbox document
 * as text and frames it with sandbox="allow-scripts" through srcdoc, so the sandbox is the same
 * opaque-origin document, with its own CSP and, inherited from the launcher, a policy just as strict.
 * It only relays messages: the sandbox's to the page, the page's to the sandbox.
 */
export function sandboxLauncher(sandboxHtml: string): string {
  // A string literal of the document (no "</" in it: the script cannot end early).
  const doc = JSON.stringify(sandboxHtml).replace(/<\//g, '<\\/');
  const script =
    `(()=>{const f=document.createElement('iframe');f.setAttribute('sandbox','allow-scripts');f.title='Example sandbox';f.srcdoc=${doc};` +
    "addEventListener('message',(e)=>{if(e.source===f.contentWindow)parent.postMessage(e.data,'*');" +
    "else if(e.source===parent&&parent!==self)f.contentWindow.postMessage(e.data,'*')});document.body.appendChild(f)})();";
  const hashOf = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;
  const inner = /<script>([\s\S]*)<\/script>/.exec(sandboxHtml)?.[1];
  if (inner === undefined) throw new Error('the sandbox document has no script');
  // The sandbox inherits this policy: it allows what the sandbox's own allows (its script too), and no more.
  const policy = sandboxPolicy(hashOf(script), hashOf(inner));
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${policy}"><title>pybook sandbox</title></head><body><script>${script}</script></body></html>\n`;
}
