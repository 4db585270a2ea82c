/** Spec: the progress bar starts only when a route change takes longer than 200 ms. */
export const PROGRESS_DELAY_MS = 200;

/** A thin bar at the top of the window, shown for slow route changes only. */
export class ProgressBar {
  private timer: number | undefined;
  private element: HTMLDivElement | undefined;

  start(): void {
    this.stopTimer();
    this.timer = window.setTimeout(() => this.show(), PROGRESS_DELAY_MS);
  }

  done(): void {
    this.stopTimer();
    const bar = this.element;
    if (!bar) return;
    this.element = undefined;
    bar.style.width = '100%';
    window.setTimeout(() => {
      bar.style.opacity = '0';
      window.setTimeout(() => bar.remove(), 250);
    }, 120);
  }

  private show(): void {
    const bar = document.createElement('div');
    bar.id = 'pybook-progress';
    bar.setAttribute('role', 'progressbar');
    bar.setAttribute('aria-hidden', 'true');
    bar.style.width = '15%';
    document.body.appendChild(bar);
    this.element = bar;
    // Creep towards 90% while waiting; done() completes it.
    const creep = () => {
      if (this.element !== bar) return;
      const width = parseFloat(bar.style.width);
      bar.style.width = `${width + (90 - width) * 0.1}%`;
      window.setTimeout(creep, 200);
    };
    window.setTimeout(creep, 50);
  }

  private stopTimer(): void {
    if (this.timer !== undefined) window.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
