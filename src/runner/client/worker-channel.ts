/**
 * A sandbox worker's line to its host, taken before the reader's program runs: the worker keeps
 * postMessage for itself and removes it from the global scope and its prototypes, so the program
 * cannot post messages of its own (a forged 'exit' or 'load-failed'). The host checks every
 * message's shape and state anyway (protocol.ts).
 */
export function takePostMessage(scope: object): (message: unknown) => void {
  const post = (scope as { postMessage(message: unknown): void }).postMessage.bind(scope);
  for (let level: object | null = scope; level; level = Object.getPrototypeOf(level) as object | null) {
    if (Object.prototype.hasOwnProperty.call(level, 'postMessage'))
      delete (level as { postMessage?: unknown }).postMessage;
  }
  return post;
}
