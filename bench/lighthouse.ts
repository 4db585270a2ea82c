import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

export interface LighthouseResult {
  url: string;
  scores: Record<string, number>;
  /** Audits that kept a category below 100, with their titles. */
  failing: Array<{ category: string; audit: string; title: string; score: number | null }>;
}

const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Lighthouse (mobile, its default form factor and throttling) on one URL with Debian's Chromium.
 * The shared 2-core CPU lowers the performance score; compare runs side by side.
 */
export async function runLighthouse(url: string): Promise<LighthouseResult> {
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { categories, audits } = result.lhr;
    const scores: Record<string, number> = {};
    const failing: LighthouseResult['failing'] = [];
    for (const [id, category] of Object.entries(categories)) {
      scores[id] = Math.round((category.score ?? 0) * 100);
      for (const ref of category.auditRefs) {
        const audit = audits[ref.id];
        if (ref.weight > 0 && audit.score !== null && audit.score < 1) failing.push({ category: id, audit: ref.id, title: audit.title, score: audit.score });
      }
    }
    return { url, scores, failing };
  } finally {
    await chrome.kill();
  }
}
