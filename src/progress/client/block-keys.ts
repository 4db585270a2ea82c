/**
 * Which stored edit belongs to which example: a key made from the example's code as the book
 * prints it, so an edit stays with its example when others are added, moved or changed, and is
 * told apart (and dropped, with a notice) when that example's own code changes. An example whose
 * code appears more than once in a chapter gets its occurrence too ("k3f9a-2").
 */

/** A 53-bit hash of the text (two 32-bit FNV-1a lanes with different offsets), in base 36. */
function hash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return ((a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff)).toString(36);
}

/** The key of each example, given the code of every example of the page in order. */
export function blockKeys(codes: string[]): string[] {
  const seen = new Map<string, number>();
  return codes.map((code) => {
    const key = hash(code);
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    return count === 1 ? key : `${key}-${count}`;
  });
}
