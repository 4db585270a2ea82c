/**
 * Behaviour of the server-rendered chapter content: code block copy and word wrap, and tabs.
 * One delegated listener each, so the content HTML never has to be re-created as React
 * elements (which would mean shipping every chapter twice).
 */

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API unavailable (insecure context, permissions): the textarea fallback works everywhere.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

/** The code of a block as the author wrote it: the line spans joined, no line numbers or buttons. */
export function codeOf(block: Element): string {
  const code = block.querySelector('.code-pre code');
  return (code?.textContent ?? '').replace(/\n$/, '');
}

function onCodeButton(button: HTMLButtonElement): void {
  const block = button.closest('.code-block');
  if (!block) return;
  if (button.dataset.codeAction === 'wrap') {
    const wrapped = block.classList.toggle('wrap');
    button.setAttribute('aria-pressed', String(wrapped));
    return;
  }
  void copyText(codeOf(block)).then(() => {
    const label = button.querySelector('.code-button-label');
    if (!label) return;
    const original = button.dataset.copyLabel ?? label.textContent ?? '';
    button.dataset.copyLabel = original;
    label.textContent = button.dataset.copiedLabel ?? 'Copied';
    button.classList.add('copied');
    window.setTimeout(() => { label.textContent = original; button.classList.remove('copied'); }, 2000);
  });
}

function selectTab(tab: HTMLElement, focus: boolean): void {
  const tabs = tab.closest('[data-tabs]');
  if (!tabs) return;
  const value = tab.dataset.tab;
  for (const other of Array.from(tabs.querySelectorAll<HTMLElement>(':scope > [role=tablist] > [role=tab]'))) {
    const active = other === tab;
    other.setAttribute('aria-selected', String(active));
    other.tabIndex = active ? 0 : -1;
  }
  for (const panel of Array.from(tabs.querySelectorAll<HTMLElement>(':scope > [role=tabpanel]'))) panel.hidden = panel.dataset.tabPanel !== value;
  if (focus) tab.focus();
}

function onTabKey(event: KeyboardEvent, tab: HTMLElement): void {
  const list = Array.from(tab.parentElement?.querySelectorAll<HTMLElement>('[role=tab]') ?? []);
  const index = list.indexOf(tab);
  const target = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: list.length - 1 }[event.key];
  if (target === undefined) return;
  event.preventDefault();
  selectTab(list[(target + list.length) % list.length], true);
}

export function installContentBehaviour(): void {
  document.addEventListener('click', (event) => {
    const target = event.target as Element | null;
    const button = target?.closest?.('button[data-code-action]');
    if (button) { onCodeButton(button as HTMLButtonElement); return; }
    const tab = target?.closest?.('[data-tabs] [role=tab]');
    if (tab) selectTab(tab as HTMLElement, false);
  });
  document.addEventListener('keydown', (event) => {
    const tab = (event.target as Element | null)?.closest?.('[data-tabs] [role=tab]');
    if (tab) onTabKey(event, tab as HTMLElement);
  });
}
