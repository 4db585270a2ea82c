import { isIP } from 'node:net';

/**
 * Which Host headers the server answers: the loopback names, any IP address literal, and the name
 * it was told to listen on. A page on another site that rebinds its own DNS name to 127.0.0.1
 * (DNS rebinding) sends its own name as Host, so it is refused and cannot read the site being
 * written (watch mode serves drafts) through the reader's browser.
 */
export function hostChecker(listenHost: string): (hostHeader: string | undefined) => boolean {
  const named = new Set(['localhost']);
  if (!isIP(listenHost) && listenHost !== '') named.add(listenHost.toLowerCase());
  return (hostHeader) => {
    if (hostHeader === undefined) return false;
    const name = hostnameOf(hostHeader);
    if (name === undefined) return false;
    return isIP(name) !== 0 || named.has(name) || name.endsWith('.localhost');
  };
}

/** The host name of a Host header ('example.com:3000' -> 'example.com', '[::1]:3000' -> '::1'), lowercased; undefined when malformed. */
function hostnameOf(header: string): string | undefined {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end === -1) return undefined;
    const rest = value.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined;
    return value.slice(1, end);
  }
  const match = /^([a-z0-9.-]+)(?::\d{1,5})?$/.exec(value);
  return match ? match[1].replace(/\.$/, '') : undefined;
}
