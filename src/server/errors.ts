/**
 * Thrown by startStaticServer when the server cannot start. The message is
 * written for the person at the terminal, so the CLI can print it as is.
 */
export class ServerStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ServerStartError';
  }
}
