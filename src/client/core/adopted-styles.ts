/**
 * Styles of a feature that loads after the page (the runner, progress, reading offline): its CSS
 * travels inside its own module and is adopted by the document when the feature first needs it,
 * so the first load's stylesheet carries none of it.
 *
 * Returns a function that adopts `css` the first time it is called and does nothing after.
 */
export function styleAdopter(css: string): () => void {
  let adopted = false;
  return () => {
    if (adopted) return;
    adopted = true;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  };
}
