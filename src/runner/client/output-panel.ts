import type { RunnerStrings } from '../../shared/i18n/types.js';
import { OUTPUT_LIMITS } from './output-batch.js';

/**
 * The reader's output panel under an example (made on the first run, after the book's output):
 * the run's text as it arrives, cut at the output limits (the sandbox cuts it first; this is the
 * page's own guard), and hints under it. Its height is limited (it scrolls, and "Show all" lifts
 * the limit), so a print loop does not make the page miles long. It is a plain part of its code
 * block, labelled, not a landmark: a page with twenty examples run has no twenty "regions".
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
    for (const extra of Array.from(this.panel.querySelectorAll('.code-run-hint, .code-run-more'))) extra.remove();
    this.panel.classList.remove('show-all');
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

  /** The run is over: says what it came to, and offers "Show all" when its output is taller than the panel. */
  setVerdict(verdict: string, label = ''): void {
    this.panel.dataset.verdict = verdict;
    this.verdict.textContent = label;
    const pre = this.code.parentElement!;
    if (pre.scrollHeight > pre.clientHeight + 1)
      this.more(this.t.showAllOutput, (button) => {
        const all = this.panel.classList.toggle('show-all');
        button.textContent = all ? this.t.showLessOutput : this.t.showAllOutput;
        button.setAttribute('aria-expanded', String(all));
      }).setAttribute('aria-expanded', 'false');
  }

  /** The runtime could not start: why, where the output would be, and a button to try again. */
  failed(message: string, retryLabel: string, retry: () => void): void {
    this.append(`${message}\n`, 'stderr');
    this.more(retryLabel, () => retry());
  }

  /** A button in the row under the output. */
  private more(label: string, onClick: (button: HTMLButtonElement) => void): HTMLButtonElement {
    let row = this.panel.querySelector<HTMLElement>(':scope > .code-run-more');
    if (!row) {
      row = document.createElement('div');
      row.className = 'code-run-more';
      this.panel.querySelector('.code-output-pre')!.after(row);
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.addEventListener('click', () => onClick(button));
    row.appendChild(button);
    return button;
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
