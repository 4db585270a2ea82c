/**
 * The page before the app hydrates (boot.ts loads it after the page is shown): links are ordinary
 * links, disclosures are native, the content's buttons work (content-events.ts), and what needs
 * React is held, never dropped. A click on one of the shell's buttons (the colour mode, the menu,
 * the sidebar's toggle, the announcement's close) starts the hydration and is clicked again once
 * the app is there: hydration keeps the server's elements, so it is the same button. Clicks after
 * hydration began are React's own to replay.
 */

let hydrating = false;
const held: HTMLElement[] = [];

/** A button of the app's shell that does nothing until React is there. */
function shellButton(target: EventTarget | null): HTMLButtonElement | undefined {
  const button = (target as Element | null)?.closest?.('button');
  if (!button || !button.closest('#__pybook')) return undefined;
  // The content's own controls (copy, run, tabs, answers) work before hydration: see content-events.ts.
  if (button.closest('.markdown, .home-sections') || button.matches('[data-code-action], [role=tab]')) return undefined;
  return button;
}

/** Holds the shell's clicks until hydration, and calls `start` (which begins it) on the first. */
export function holdShellClicks(start: () => void): void {
  document.addEventListener(
    'click',
    (event) => {
      if (hydrating) return;
      const button = shellButton(event.target);
      if (!button) return;
      held.push(button);
      start();
    },
    true,
  );
}

/** Hydration begins: from now on React hears the clicks. */
export function hydrationBegins(): void {
  hydrating = true;
}

/** Hydration is done: the held clicks happen now, on the same buttons. */
export function replayHeldClicks(): void {
  for (const button of held.splice(0)) if (button.isConnected) button.click();
}

/** What the reader typed in the search box before hydration (the box shows it; the app takes it over). */
export function typedBeforeHydration(): { query: string; focused: boolean } {
  const input = document.getElementById('navbar-search-input') as HTMLInputElement | null;
  return { query: input?.value ?? '', focused: input !== null && document.activeElement === input };
}
