// The playground stays responsive with 5,000 rules: after each pause in typing, the evaluation,
// the new page of results and the link update fit in the browser's long-task threshold (50 ms),
// measured in Chromium with a PerformanceObserver for 'longtask'.
import { compileFilter } from '@listkit/query';
import { forwardingRuleSchema, sampleForwardingRules } from '@listkit/service';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { skipBrowser, usePlayground } from './harness.js';

const RULES = 5000;
const rules = sampleForwardingRules(RULES);
const matchCount = (filter: string) => {
  const compiled = compileFilter(filter, forwardingRuleSchema);
  return rules.filter((r) => compiled.matches(r)).length;
};

/** Filter edits as a person makes them: each one a pause, and each leaves a valid filter. */
const EDITS = [
  'labels.env = prod',
  ' AND IPProtocol = TCP',
  ' AND NOT name:web-*',
  ' OR IPProtocol = UDP',
  ' AND creationTimestamp >= "2024-06-01T00:00:00Z"',
  ' AND labels:env',
  ' OR loadBalancingScheme = INTERNAL',
  ' AND NOT description:canary',
];

/**
 * The bound on the median, over the edits, of the longest task after each edit. On this 2-core
 * machine under load, before the fix every edit froze the page for 85-115 ms (medians of three
 * runs: 87, 88, 91 ms); after it no edit causes a long task at all (medians 0; a Chrome trace
 * puts the longest task of eight edits at 25-37 ms). A garbage collection or a busy neighbour
 * process can still make one task long, so the median is asserted rather than the maximum; a CI
 * machine would have to be about twice as slow as this one for the median to reach the bound.
 */
const MEDIAN_LONGEST_TASK_MS = 60;

declare global {
  interface Window {
    longTasks: { start: number; duration: number }[];
  }
}

/** Records every long task the page has from its start. */
function observeLongTasks(page: Page) {
  return page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        window.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** The longest task in each window [starts[i], starts[i + 1]), the last one open (0: none over 50 ms). */
const longestTasks = (page: Page, starts: number[]) =>
  page.evaluate(
    (bounds) =>
      bounds.map((from, i) => {
        const to = bounds[i + 1] ?? Number.POSITIVE_INFINITY;
        const inWindow = window.longTasks.filter((t) => t.start >= from && t.start < to);
        return Math.max(0, ...inWindow.map((t) => t.duration));
      }),
    starts,
  );

/** Resolves after the page has painted twice: work queued by the last evaluation has run. */
const afterTwoFrames = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now()))),
      ),
  );

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

describe.skipIf(skipBrowser)('playground responsiveness in Chromium', { timeout: 180_000 }, () => {
  const playground = usePlayground();

  it('measures long tasks at all (a 120 ms script is seen)', async () => {
    const page = await playground.open(`${playground.base()}/#filter=`, {
      before: observeLongTasks,
    });
    const since = await page.evaluate(() => performance.now());
    // In a timer, as the page's own work runs (a task the protocol runs is not observed).
    await page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            const end = performance.now() + 120;
            while (performance.now() < end) {
              // busy: one long task
            }
            resolve();
          }),
        ),
    );
    await afterTwoFrames(page);
    const [longest] = await longestTasks(page, [since]);
    expect(longest).toBeGreaterThanOrEqual(100);
  });

  it(`re-evaluates ${RULES} edited rules after each pause within a frame budget`, async () => {
    const page = await playground.open(`${playground.base()}/#filter=&sample=${RULES}`, {
      before: observeLongTasks,
    });
    // The data panel open and applied, as after pasting 5,000 rules: the page then holds them as
    // text (the data editor) and as edited data (the link), besides the collection it lists.
    await page.locator('#data-details > summary').click();
    await page.locator('#data-apply').click();
    await expect
      .poll(() => page.locator('#data-summary').textContent(), { timeout: 30_000 })
      .toBe(`${RULES} forwarding rules (edited)`);
    await afterTwoFrames(page);

    await page.locator('.cm-content').click();
    let filter = '';
    const starts: number[] = [];
    for (const edit of EDITS) {
      filter += edit;
      const expected = `${matchCount(filter)} of ${RULES} resources match`;
      starts.push(await page.evaluate(() => performance.now()));
      await page.keyboard.insertText(edit);
      // Evaluated (the match count is the library's) and shown, link and all.
      await expect.poll(() => page.locator('#match-count').textContent()).toBe(expected);
      await expect
        .poll(() => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('filter')))
        .toBe(filter);
    }
    // The page of results follows the count: let it (and any task after it) finish.
    await afterTwoFrames(page);
    await page.waitForTimeout(500);
    await afterTwoFrames(page);
    const longest = await longestTasks(page, starts);
    expect(
      median(longest),
      `longest task after each edit (ms): ${longest.map(Math.round).join(', ')}`,
    ).toBeLessThan(MEDIAN_LONGEST_TASK_MS);
  });
});
