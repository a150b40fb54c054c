// The playground stays responsive with 5,000 rules: after each pause in typing, the evaluation,
// the new page of results and the link update run in short tasks. Measured in Chromium as the
// CPU time (a Chrome trace's thread time) of the longest task on the page's main thread. Not
// with a PerformanceObserver for 'longtask': it reports wall time, which on a shared 2-core
// machine measures the neighbours as much as the page (tasks of about 12 ms of CPU showed as
// long tasks of up to 250 ms under a load average of 8), and before the fix it did not report the longest task at all (181-214 ms of
// CPU per edit in the trace; the longest tasks it reported were 85-115 ms).
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
 * The bound on the median, over the edits, of the CPU time of the longest task after each edit:
 * the long-task threshold. On this 2-core machine (load average 8), before the fix each edit had
 * a task of 181-214 ms (medians of three runs: 185, 194, 196 ms); after it, of 9-13 ms (medians
 * 11, 11, 12 ms). A garbage collection can still make one task long, so the median is asserted
 * rather than the maximum.
 */
const MEDIAN_LONGEST_TASK_CPU_MS = 50;

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * Runs `action` under a Chrome trace and returns the CPU time (ms) of the longest task on the
 * page's main thread meanwhile.
 */
async function longestTaskCpuMs(page: Page, action: () => Promise<void>): Promise<number> {
  const browser = page.context().browser()!;
  await browser.startTracing(page, { categories: ['toplevel'] });
  await action();
  const trace = JSON.parse((await browser.stopTracing()).toString()) as {
    traceEvents: TraceEvent[];
  };
  const events = trace.traceEvents;
  const mainThreads = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}/${e.tid}`),
  );
  expect(mainThreads.size).toBeGreaterThan(0);
  let longest = 0;
  for (const e of events) {
    if (e.ph !== 'X' || !e.name.endsWith('RunTask') || !mainThreads.has(`${e.pid}/${e.tid}`))
      continue;
    longest = Math.max(longest, (e.tdur ?? 0) / 1000);
  }
  return longest;
}

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

  it('measures the CPU time of the page’s tasks at all (a heavy script is seen)', async () => {
    const page = await playground.open(`${playground.base()}/#filter=`);
    const longest = await longestTaskCpuMs(page, async () => {
      // A fixed amount of work in a timer, as the page's own work runs (sorting two million
      // numbers: about 700 ms of CPU here). Not a loop until a time: a busy machine would
      // deschedule it for part of that time.
      await page.evaluate(
        () =>
          new Promise<number>((resolve) =>
            setTimeout(() => {
              const numbers = Array.from({ length: 2_000_000 }, (_, i) => (i * 7919) % 1_000_003);
              resolve(numbers.sort((a, b) => a - b)[0]!);
            }),
          ),
      );
      await afterTwoFrames(page);
    });
    expect(longest).toBeGreaterThanOrEqual(100);
  });

  it(`re-evaluates ${RULES} edited rules after each pause in short tasks`, async () => {
    const page = await playground.open(`${playground.base()}/#filter=&sample=${RULES}`);
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
    const longest: number[] = [];
    for (const edit of EDITS) {
      filter += edit;
      const expected = `${matchCount(filter)} of ${RULES} resources match`;
      const edited = await longestTaskCpuMs(page, async () => {
        await page.keyboard.insertText(edit);
        // Evaluated (the match count is the library's) and shown, link and all.
        await expect.poll(() => page.locator('#match-count').textContent()).toBe(expected);
        await expect
          .poll(() =>
            page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('filter')),
          )
          .toBe(filter);
        // The page of results follows the count (its page token is sealed asynchronously).
        await afterTwoFrames(page);
        await page.waitForTimeout(300);
        await afterTwoFrames(page);
      });
      longest.push(edited);
    }
    // Every edit was measured (its evaluation is a task of some milliseconds)…
    expect(Math.min(...longest)).toBeGreaterThan(1);
    // …and most were short.
    expect(
      median(longest),
      `CPU time of the longest task after each edit (ms): ${longest.map(Math.round).join(', ')}`,
    ).toBeLessThan(MEDIAN_LONGEST_TASK_CPU_MS);
  });
});
