/**
 * The web platform's globals that Node and browsers both have (the WinterCG minimum), for the code
 * in the shared folders, which runs on both sides: it is compiled (tsconfig.shared.json) with neither
 * the DOM's types nor Node's, and may use exactly these.
 */
declare function setTimeout(handler: (...args: unknown[]) => void, timeout?: number, ...args: unknown[]): unknown;
declare function clearTimeout(id: unknown): void;
declare function setInterval(handler: (...args: unknown[]) => void, timeout?: number, ...args: unknown[]): unknown;
declare function clearInterval(id: unknown): void;
declare function queueMicrotask(callback: () => void): void;

declare const performance: { now(): number };

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}

declare class URL {
  constructor(url: string, base?: string | URL);
  href: string;
  origin: string;
  protocol: string;
  host: string;
  pathname: string;
  search: string;
  hash: string;
  readonly searchParams: { get(name: string): string | null; set(name: string, value: string): void };
  toString(): string;
}
