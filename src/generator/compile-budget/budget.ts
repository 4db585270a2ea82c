/**
 * How long one chapter may take to compile. micromark is superlinear on some input (a line of
 * `*_` repeated 5,000 times took 7 s, 50,000 did not finish in two minutes; a 20 KB line of `>`
 * overflowed the stack after 35 s): past its budget a chapter's worker is stopped and the
 * chapter fails, naming the line (see locate-culprit.ts). The real book's chapters take 0.1 to
 * 0.7 s each on a busy two-core machine (the slowest is the first, the JIT still cold), so the
 * default leaves them more than ten times that.
 */
export const DEFAULT_BUDGET_MS = 2_000;
/** The environment variable that sets the base budget (tests set a short one). */
export const BUDGET_ENV = 'PYBOOK_COMPILE_BUDGET_MS';

/** The base budget: `requested` (BuildOptions.compileBudgetMs), else PYBOOK_COMPILE_BUDGET_MS, else the default. */
export function baseBudgetMs(requested?: number, env: NodeJS.ProcessEnv = process.env): number {
  if (requested !== undefined) return requested;
  const fromEnv = Number(env[BUDGET_ENV]);
  return env[BUDGET_ENV] !== undefined && Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_BUDGET_MS;
}

/** A chapter's budget: the base for a small chapter, one more base per 10 KB (a 36 KB chapter gets 4.6 bases). */
export function chapterBudgetMs(base: number, sourceLength: number): number {
  return Math.round(base * (1 + sourceLength / 10_000));
}
