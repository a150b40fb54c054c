// The playground in a real Chromium (Debian's `chromium`, driven by playwright-core), against the
// BUILT playground/dist (test/playground/browser/harness.ts serves it on a loopback port), and from the emulator
// at /playground/ for the emulator comparison. (The README's screenshot is `pnpm screenshot`.)
import { compileFilter, ListkitError, parseFilter } from '@listkit/query';
import {
  createEmulator,
  type Emulator,
  forwardingRuleSchema,
  sampleForwardingRules,
} from '@listkit/service';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountPlayground } from '../../../packages/service/src/http/playground-static.js';
import { dist, editorText, matchCount, skipBrowser, typeFilter, usePlayground } from './harness.js';

const rules = sampleForwardingRules(300);
const matching = (filter: string) => {
  const compiled = compileFilter(filter, forwardingRuleSchema);
  return rules.filter((r) => compiled.matches(r));
};
const formatted = (filter: string) => {
  try {
    compileFilter(parseFilter(filter), forwardingRuleSchema);
  } catch (error) {
    if (error instanceof ListkitError) return error.format();
  }
  throw new Error(`${filter} is valid`);
};

describe.skipIf(skipBrowser)('the playground in Chromium', { timeout: 180_000 }, () => {
  const playground = usePlayground();
  let base = '';
  let emulator: Emulator | undefined;
  beforeAll(() => {
    base = playground.base();
  });
  afterAll(() => emulator?.close());
  const open = (url: string) => playground.open(url);

  it('loads with an example filter, highlighted, and its matches', async () => {
    const page = await open(`${base}/`);
    const filter = await editorText(page);
    expect(filter).toContain('labels.env = prod');
    await expect
      .poll(() => matchCount(page))
      .toBe(`${matching(filter).length} of 300 resources match`);
    expect(await page.locator('#style-badge').textContent()).toBe('AIP-160');
    expect(await page.locator('.cm-content .tok-field').first().textContent()).toBe('labels');
    expect(await page.locator('.cm-content .tok-keyword').first().textContent()).toBe('AND');
    expect(await page.locator('.cm-content .tok-operator').first().textContent()).toBe('=');
    expect(await page.locator('#timings').textContent()).toMatch(
      /parse \+ check \+ compile .* ms · evaluate 300 resources .* ms/,
    );
    expect(await page.locator('#explanation').textContent()).toContain('All of these hold');
  });

  it('evaluates a typed filter as you type, in both styles', async () => {
    const page = await open(`${base}/`);
    const aip = 'labels.env = prod AND IPProtocol = UDP';
    await typeFilter(page, aip);
    await expect
      .poll(() => matchCount(page))
      .toBe(`${matching(aip).length} of 300 resources match`);
    expect(await page.locator('#style-badge').textContent()).toBe('AIP-160');

    const regex = '(name eq "(api|web)-prod-.*")(IPProtocol ne "TCP")';
    await typeFilter(page, regex);
    await expect
      .poll(() => matchCount(page))
      .toBe(`${matching(regex).length} of 300 resources match`);
    expect(await page.locator('#style-badge').textContent()).toBe('regex style (RE2)');
    expect(await page.locator('.cm-content .tok-regex').first().textContent()).toBe(
      '"(api|web)-prod-.*"',
    );
    expect(matching(regex).length).toBeGreaterThan(0);

    // Shift+Alt+F prints the canonical form; Ctrl+Enter evaluates at once.
    await typeFilter(page, 'labels.env=prod   AND (IPProtocol:UDP)');
    await page.keyboard.press('Shift+Alt+F');
    expect(await editorText(page)).toBe('labels.env = prod AND (IPProtocol : UDP)');
    await page.keyboard.press('ControlOrMeta+Enter');
    expect(await matchCount(page)).toBe(`${matching(aip).length} of 300 resources match`);
  });

  it('shows a broken filter’s error where it is: squiggle, hover message, caret line, cursor', async () => {
    const page = await open(`${base}/`);
    const broken = 'name = "unterminated';
    await typeFilter(page, broken);
    const squiggle = page.locator('.cm-lintRange-error');
    // Keystrokes may come slower than the debounce: wait for the squiggle of the whole text.
    await expect.poll(() => squiggle.allTextContents()).toEqual(['"unterminated']);
    await expect.poll(() => page.locator('#filter-error').textContent()).toBe(formatted(broken));
    expect(formatted(broken)).toContain('^~~~~~~~~~~~~ unterminated string (1:8)');
    expect(await page.locator('#cursor-position').textContent()).toBe('Ln 1, Col 21');
    expect(await matchCount(page)).toBe('Fix the filter to see matches');
    expect(await page.locator('.cm-content').getAttribute('aria-invalid')).toBe('true');

    await squiggle.hover();
    await expect
      .poll(() => page.locator('.cm-tooltip-lint').textContent())
      .toContain('unterminated string (1:8)');

    // A schema problem: a misspelt field, with its suggestion.
    await typeFilter(page, 'nmae = web-*');
    await expect.poll(() => page.locator('.cm-lintRange-error').textContent()).toBe('nmae');
    expect(await page.locator('#filter-error').textContent()).toContain("did you mean 'name'?");
  });

  it('reproduces the whole state from a shared link', async () => {
    const page = await open(`${base}/`);
    const filter = 'labels.env = staging OR labels.env = dev';
    await typeFilter(page, filter);
    await page.locator('#order-by').fill('creationTimestamp desc');
    await page.locator('#page-size').fill('7');
    // Edited data: the first 40 rules.
    await page.locator('#data-details > summary').click();
    await page.locator('#data-text').fill(JSON.stringify(rules.slice(0, 40), null, 2));
    await page.locator('#data-apply').click();
    await expect
      .poll(() => page.locator('#data-summary').textContent())
      .toBe('40 forwarding rules (edited)');
    const data = rules.slice(0, 40);
    const selected = matching(filter).filter((r) => data.includes(r));
    const expected = `${selected.length} of 40 resources match`;
    const firstPage = selected
      .map((r) => ({ name: r.name, at: Date.parse(String(r.creationTimestamp)) }))
      .sort((a, b) => b.at - a.at || (a.name < b.name ? -1 : 1))
      .slice(0, 7)
      .map((r) => r.name);
    const rows = (p: Page) => p.locator('#results tbody tr td:nth-child(2)').allTextContents();
    await expect.poll(() => matchCount(page)).toBe(expected);
    await expect.poll(() => rows(page)).toEqual(firstPage);
    await expect.poll(() => page.url()).toContain('data=');
    await expect.poll(() => page.url()).toContain('pageSize=7');

    const link = page.url();
    expect(link).toContain('orderBy=creationTimestamp+desc');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.locator('#copy-link').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    const again = await open(link);
    expect(await editorText(again)).toBe(filter);
    expect(await again.locator('#order-by').inputValue()).toBe('creationTimestamp desc');
    expect(await again.locator('#page-size').inputValue()).toBe('7');
    expect(await again.locator('#data-summary').textContent()).toBe('40 forwarding rules (edited)');
    await expect.poll(() => matchCount(again)).toBe(expected);
    await expect.poll(() => rows(again)).toEqual(firstPage);
  });

  it('walks to the second page with the real page-token codec', async () => {
    const filter = 'labels.env = prod';
    const page = await open(`${base}/#${new URLSearchParams({ filter, pageSize: '10' })}`);
    const names = matching(filter)
      .map((r) => r.name)
      .sort();
    const shown = () => page.locator('#results tbody tr td:nth-child(2)').allTextContents();
    await expect.poll(shown).toEqual(names.slice(0, 10));
    expect(await page.locator('#page-token').textContent()).toMatch(/^[A-Za-z0-9_-]+/);
    expect(await page.locator('#prev-page').isDisabled()).toBe(true);

    await page.locator('#next-page').click();
    await expect.poll(shown).toEqual(names.slice(10, 20));
    expect(await page.locator('#page-info').textContent()).toContain(
      `Page 2: items 11–20 of ${names.length}`,
    );
    await page.locator('#prev-page').click();
    await expect.poll(shown).toEqual(names.slice(0, 10));
  });

  it('links the syntax tree and the text both ways, and never traps the keyboard', async () => {
    const page = await open(
      `${base}/#${new URLSearchParams({ filter: 'labels.env = prod AND NOT labels:team' })}`,
    );
    // The cursor inside `labels:team` marks its node.
    await page.locator('.cm-content').click();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await expect
      .poll(() => page.locator('.tree li.at-cursor > .node-row .node-detail').textContent())
      .toBe('"team"');
    // Selecting a node (keyboard) highlights its text.
    const restriction = page
      .locator('.tree li[role="treeitem"]', { hasText: 'labels.env = prod' })
      .last();
    await restriction.focus();
    await expect
      .poll(() => page.locator('.cm-ast-selected').textContent())
      .toBe('labels.env = prod');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator('.cm-ast-selected').textContent()).toBe('labels.env');
    // Tab leaves the editor.
    await page.locator('.cm-content').click();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('.cm-editor') === null)).toBe(
      true,
    );
  });

  it('explains which clause made a chosen resource match or fail', async () => {
    const filter = 'labels.env = prod AND IPProtocol = UDP';
    const page = await open(`${base}/#${new URLSearchParams({ filter })}`);
    const miss = rules.find((r) => (r.labels as Record<string, string>).env !== 'prod')!;
    await page.locator('#why-name').fill(miss.name);
    await page.locator('#why-name').dispatchEvent('change');
    const why = page.locator('#why');
    await expect
      .poll(() => why.locator('.verdict').textContent())
      .toContain(`${miss.name} does not match, because`);
    expect(await why.locator('.verdict').textContent()).toContain('labels.env is exactly "prod"');
    expect(await why.locator('.decides').count()).toBe(1);
    expect(await why.textContent()).toContain(
      `labels.env is "${(miss.labels as Record<string, string>).env}"`,
    );
  });

  it('opens every example from its link', async () => {
    const page = await open(`${base}/`);
    await page.locator('#examples-menu > summary').click();
    await page.locator('a[data-example="regex-terms"]').click();
    await expect
      .poll(() => editorText(page))
      .toBe('(name eq "(api|web)-prod-.*")(IPProtocol ne "TCP")');
    await expect.poll(() => page.url()).toContain('filter=');
    const links = await page
      .locator('#examples-list a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(links.length).toBeGreaterThan(20);
    expect(links.every((href) => href?.startsWith('#example='))).toBe(true);
  });

  it('compares its page with a running emulator’s, served at /playground/', async () => {
    emulator = await createEmulator({
      seed: {
        forwardingRules: rules.map((rule) => ({
          project: 'my-project',
          region: String(rule.region).split('/').pop()!,
          rule,
        })),
      },
    });
    expect(mountPlayground(emulator.app, dist)).toBe(true);
    const url = await emulator.listen(0);
    const filter = 'labels.env = prod OR IPProtocol = UDP';
    const page = await open(`${url}/playground/#${new URLSearchParams({ filter, pageSize: '5' })}`);
    await page.locator('#emulator-details > summary').click();
    expect(await page.locator('#emulator-url').inputValue()).toBe(url);
    await page.locator('#emulator-compare').click();
    await expect
      .poll(() => page.locator('#emulator-result .verdict').first().textContent())
      .toContain('Page 1: the same 5 items in the same order; both have a next page.');
    await page.locator('#emulator-next').click();
    await expect
      .poll(() => page.locator('#emulator-result .verdict').nth(1).textContent())
      .toContain('Page 2: the same');
  });
});
