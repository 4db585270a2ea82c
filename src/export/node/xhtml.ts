import type { Element, ElementContent } from 'hast';
import { toXast } from 'hast-util-to-xast';
import { toXml } from 'xast-util-to-xml';
import { h } from './hast.js';

/** Escapes text for XML content and attribute values. */
export const xmlText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * An XHTML content document of the EPUB: `body` serialised as XML (hast-util-to-xast), in the
 * XHTML namespace, with the document's language, title and the stylesheet.
 */
export function xhtmlDocument(options: {
  lang: string;
  dir: string;
  title: string;
  stylesheet: string;
  body: ElementContent[];
  bodyClass?: string;
}): string {
  const body: Element = h('body', options.bodyClass ? { className: [options.bodyClass] } : {}, options.body);
  const xml = toXml(toXast(body), { closeEmptyElements: true }).replace(
    / xmlns="http:\/\/www\.w3\.org\/1999\/xhtml"/,
    '',
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n' +
    `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="${xmlText(options.lang)}" xml:lang="${xmlText(options.lang)}" dir="${xmlText(options.dir)}">\n` +
    `<head>\n<meta charset="utf-8"/>\n<title>${xmlText(options.title)}</title>\n<link rel="stylesheet" type="text/css" href="${xmlText(options.stylesheet)}"/>\n</head>\n` +
    `${xml}\n</html>\n`
  );
}
