import type { RunnerStrings } from '../../shared/i18n/types.js';
import { OUTPUT_LIMITS } from './output-batch.js';

/**
 * The reader's output panel under an example (made on the first run, after the book's output):
 * the run's text as it arrives, cut at the output limits (the sandbox cuts it first; this is the
 * page's own guard), and hints under it.
 */
export class OutputPanel {
  readonly panel: HTMLElement;
  private readonly verdict: HTMLElement;
  private readonly code: HTMLElement;
  private shown = 0;
  private cut = false;

  constructor(
    block: Element,
    private readonly t: RunnerStrings,
  ) {
    let panel = block.querySelector<HTMLElement>(':scope > .code-run-output');
    if (!panel) {
      panel = document.createElement('div');
      panel.className = 'code-output code-run-output';
      panel.setAttribute('role', 'region');
      panel.setAttribute('aria-label', t.yourRun);
      const label = document.createElement('div');
      label.className = 'code-output-label';
      const name = document.createElement('span');
      name.textContent = t.yourRun;
      const verdict = document.createElement('span');
      verdict.className = 'code-run-verdict';
      label.append(name, verdict);
      const pre = document.createElement('pre');
      pre.className = 'code-output-pre';
      pre.tabIndex = 0;
      pre.appendChild(document.createElement('code'));
      panel.append(label, pre);
      block.appendChild(panel);
    }
    this.panel = panel;
    this.verdict = panel.querySelector<HTMLElement>('.code-run-verdict')!;
    this.code = panel.querySelector<HTMLElement>('code')!;
  }

  /** Empties the panel for a new run; tests and tools wait for the next data-run number. */
  startRun(): void {
    this.code.textContent = '';
    this.verdict.textContent = '';
    for (const hint of Array.from(this.panel.querySelectorAll('.code-run-hint'))) hint.remove();
    this.shown = 0;
    this.cut = false;
    this.panel.dataset.verdict = 'pending';
    this.panel.dataset.run = String(Number(this.panel.dataset.run ?? 0) + 1);
  }

  append(text: string, stream: 'stdout' | 'stderr'): void {
    if (this.cut) return;
    const piece = text.slice(0, OUTPUT_LIMITS.chars - this.shown);
    this.shown += piece.length;
    if (stream === 'stdout') this.code.appendChild(document.createTextNode(piece));
    else {
      const span = document.createElement('span');
      span.className = 'code-run-stderr';
      span.textContent = piece;
      this.code.appendChild(span);
    }
    if (this.shown >= OUTPUT_LIMITS.chars) this.truncate();
  }

  /** Ends the output with the "output truncated" line; nothing more is shown for this run. */
  truncate(): void {
    if (this.cut) return;
    this.cut = true;
    const line = document.createElement('span');
    line.className = 'code-run-truncated';
    line.textContent = `${this.code.textContent?.endsWith('\n') ? '' : '\n'}${this.t.truncated.replace('{lines}', OUTPUT_LIMITS.lines.toLocaleString()).replace('{kb}', String(OUTPUT_LIMITS.chars / 1000))}\n`;
    this.code.appendChild(line);
  }

  get truncated(): boolean {
    return this.cut;
  }

  setVerdict(verdict: string, label = ''): void {
    this.panel.dataset.verdict = verdict;
    this.verdict.textContent = label;
  }

  /** A sentence under the output (why it failed, what to do), with an optional link at its end. */
  hint(text: string, link?: { href: string; text: string }): void {
    const hint = document.createElement('p');
    hint.className = 'code-run-hint';
    hint.textContent = text;
    if (link) {
      const a = document.createElement('a');
      a.href = link.href;
      a.textContent = link.text;
      hint.append(a, '.');
    }
    this.panel.appendChild(hint);
  }
}
