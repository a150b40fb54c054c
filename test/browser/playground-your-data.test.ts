// The playground with a person's own data first (issue 36), in Chromium at a phone's 390×844 and
// a laptop's 1280×800: "Your data" opens the data box at the top, a file dropped anywhere applies,
// a filter that no longer checks is cleared (kept in History) and one line says what was inferred;
// nothing floats over the results; a link too large for its data says so and asks for it (and
// the sender's own browser reopens it whole); results read as cards on a phone and as a table
// whose columns fit their values on a laptop; `region = ` completes the data's regions.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { countries, REGIONS } from './countries.js';
import {
  axeViolations,
  editorText,
  matchCount,
  skipBrowser,
  typeFilter,
  usePlayground,
} from './harness.js';

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };
const VIEWPORTS = [PHONE, LAPTOP];
const FIRST_FILTER = 'labels.env = prod AND creationTimestamp >= 2025-01-01T00:00:00Z';
const europe = countries.filter((c) => c.region === 'Europe');

const status = (page: Page) => page.locator('#status').textContent();
const noSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

/** Drops a file on `target` (any element of the page), as a person drags one from a folder. */
async function dropFile(page: Page, target: string, name: string, text: string) {
  await page.locator(target).evaluate(
    (element, file) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([file.text], file.name));
      element.dispatchEvent(
        new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }),
      );
    },
    { name, text },
  );
}

/** Where an element is on screen. */
const box = async (page: Page, selector: string) => {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not on screen`);
  return found;
};

describe.skipIf(skipBrowser)('your data first, in Chromium', { timeout: 180_000 }, () => {
  const playground = usePlayground();
  const open = (path: string, options?: Parameters<typeof playground.open>[1]) =>
    playground.open(`${playground.base()}${path}`, options);

  /** The page with the countries dropped on it, over a filter of the forwarding rules. */
  async function withCountries(viewport: typeof PHONE, colorScheme?: 'light' | 'dark') {
    const page = await open(`/#${new URLSearchParams({ filter: FIRST_FILTER })}`, {
      viewport,
      colorScheme,
    });
    await dropFile(page, '#results-panel', 'countries.json', JSON.stringify(countries));
    await expect
      .poll(() => page.locator('#data-summary').textContent())
      .toBe('250 resources (edited)');
    return page;
  }

  for (const viewport of VIEWPORTS) {
    const size = `${viewport.width}×${viewport.height}`;

    it(`${size}: "Your data" opens the data box at the top, empty, asking for the data`, async () => {
      const page = await open('/', { viewport });
      const option = page.locator('#dataset option[value="custom"]');
      expect(await option.isDisabled()).toBe(false);
      await page.locator('#dataset').selectOption('custom');
      await expect.poll(() => page.locator('#data-details').getAttribute('open')).toBe('');
      expect(await page.locator('#data-text').inputValue()).toBe('');
      expect(
        await page.evaluate(() => document.activeElement === document.getElementById('data-text')),
      ).toBe(true);
      expect(await page.locator('#data-prompt').textContent()).toContain('Paste your data here');
      // At the top: above the filter, in view.
      const data = await box(page, '#data-details');
      expect(data.y).toBeLessThan((await box(page, '#filter-panel')).y);
      expect(data.y).toBeGreaterThanOrEqual(0);
      expect(data.y).toBeLessThan(viewport.height);
      expect(await matchCount(page)).toBe('0 of 0 resources match');
      expect(await page.locator('#results').textContent()).toContain('No data yet');
      expect(await noSideways(page)).toBe(true);
    });

    it(`${size}: data dropped anywhere shows at once; the old filter is cleared into History`, async () => {
      const page = await withCountries(viewport);
      // The forwarding rules' filter no longer checks: cleared, so every country shows, not stale.
      expect(await page.locator('.cm-content .cm-placeholder').count()).toBe(1);
      await expect
        .poll(() => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('filter')))
        .toBe('');
      await expect.poll(() => matchCount(page)).toBe('250 of 250 resources match');
      await expect.poll(() => page.locator('#results .row-link').first().textContent()).toBe('AA');
      expect(await page.locator('#results .stale-note').count()).toBe(0);
      expect(await page.locator('#data-details').getAttribute('open')).toBeNull();
      // One line: records, fields, key; and what was cleared.
      const said = await status(page);
      expect(said).toContain('250 records applied · schema inferred: 15 fields, key cca2.');
      expect(said).toContain('no longer checks');
      expect(said).toContain('kept in History');
      await page.locator('#history-details > summary').click();
      expect(await page.locator('#history-list .history-restore').first().textContent()).toBe(
        FIRST_FILTER,
      );
      // The schema a click away.
      await page.getByRole('button', { name: 'Show the schema' }).click();
      expect(await page.locator('#fields-details').getAttribute('open')).toBe('');
      const fields = await box(page, '#fields-details > summary');
      expect(fields.y).toBeGreaterThan(-1); // scrolled to the top, to a fraction of a pixel
      expect(fields.y).toBeLessThan(viewport.height);
      expect(await page.locator('#schema-origin').textContent()).toContain('key: cca2');
      expect(await noSideways(page)).toBe(true);
    });

    it(`${size}: no notice covers the results; size limits are said at Copy link`, async () => {
      const page = await withCountries(viewport);
      await expect.poll(() => page.url()).toContain('dataLeftOut=250');
      const statusLine = page.locator('#status');
      expect(await statusLine.evaluate((e) => getComputedStyle(e).position)).toBe('static');
      expect(await status(page)).not.toContain('too large');
      // The status line sits above the results, in the page's flow: nothing overlaps them.
      const overlaps = await page.evaluate(() => {
        const results = document.getElementById('results')!.getBoundingClientRect();
        return [...document.querySelectorAll('#status, .notice')].some((e) => {
          const r = e.getBoundingClientRect();
          return r.bottom > results.top && r.top < results.bottom && r.height > 0;
        });
      });
      expect(overlaps).toBe(false);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.locator('#copy-link').click();
      await expect.poll(() => status(page)).toContain('Link copied without the data');
      expect(await status(page)).toMatch(/its 250 records pack to [\d.]+ KB, over the 6 KB/);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
    });

    it(`${size}: a link without its data says so, on an empty "your data", never another dataset`, async () => {
      const page = await withCountries(viewport);
      await typeFilter(page, 'region = Europe');
      await expect.poll(() => matchCount(page)).toBe(`${europe.length} of 250 resources match`);
      await page.locator('#tests-add').click();
      await expect.poll(() => page.locator('#tests-summary').textContent()).toBe('1 of 1 pass');
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.locator('#copy-link').click();
      await expect.poll(() => status(page)).toContain('Link copied without the data');
      const link = page.url();
      expect(link).toContain('dataLeftOut=250');
      expect(new URLSearchParams(link.slice(link.indexOf('#') + 1)).has('data')).toBe(false);

      // Another browser (a fresh context): the prompt, with filter, schema and tests intact.
      const elsewhere = await playground.open(link, { viewport });
      const said = await status(elsewhere);
      expect(said).toContain("This link's data was not included (250 records");
      expect(said).toContain('Paste or drop the data');
      expect(await elsewhere.locator('#dataset').inputValue()).toBe('custom');
      expect(await elsewhere.locator('#data-details').getAttribute('open')).toBe('');
      expect(await elsewhere.locator('#data-prompt').textContent()).toContain(
        'paste or drop the data',
      );
      expect(await editorText(elsewhere)).toBe('region = Europe');
      expect(await elsewhere.locator('#filter-error').isVisible()).toBe(false);
      expect(await elsewhere.locator('#schema-origin').textContent()).toContain(
        "key: cca2; inferred from the sender's data",
      );
      expect(await elsewhere.locator('#tests-list .test-filter').textContent()).toBe(
        'region = Europe',
      );
      expect(await elsewhere.locator('#tests-summary').textContent()).toBe('waiting for the data');
      expect(await matchCount(elsewhere)).toBe('0 of 0 resources match');
      expect(await elsewhere.locator('#results').textContent()).toContain(
        "this link's data was not included",
      );
      expect(await elsewhere.locator('#results .row-link').count()).toBe(0);
      // The data, dropped: the filter and tests work on it as they did for the sender.
      await dropFile(elsewhere, 'main', 'countries.json', JSON.stringify(countries));
      await expect
        .poll(() => matchCount(elsewhere))
        .toBe(`${europe.length} of 250 resources match`);
      expect(await editorText(elsewhere)).toBe('region = Europe');
      await expect
        .poll(() => elsewhere.locator('#tests-summary').textContent())
        .toBe('1 of 1 pass');

      // The sender's own browser kept the data: the link reopens whole there.
      const again = await page.context().newPage();
      await again.goto(link);
      await again.waitForSelector('body[data-ready="true"]');
      expect(await again.locator('#data-summary').textContent()).toBe('250 resources (edited)');
      await expect.poll(() => matchCount(again)).toBe(`${europe.length} of 250 resources match`);
      expect(await status(again)).toContain('this browser kept a copy');
      await again.close();
    });

    it(`${size}: completes region = with the data's regions, the most frequent first`, async () => {
      const page = await withCountries(viewport);
      await page.locator('.cm-content').click();
      await page.keyboard.type('region = ');
      const options = page.locator('.cm-tooltip-autocomplete li');
      await expect
        .poll(() => options.locator('.cm-completionLabel').allTextContents())
        .toEqual(REGIONS.map(([region]) => region));
      expect(await options.locator('.cm-completionDetail').allTextContents()).toEqual(
        REGIONS.map(([, count]) => `${count} records`),
      );
      await page.keyboard.type('Eu');
      await page.waitForTimeout(150);
      await page.keyboard.press('Enter');
      expect(await editorText(page)).toBe('region = Europe');
      await expect.poll(() => matchCount(page)).toBe(`${europe.length} of 250 resources match`);
      // A value of more than one word is offered quoted; after a typed quote, it closes it.
      await page.keyboard.type(' AND subregion = ');
      await expect
        .poll(() => options.locator('.cm-completionLabel').allTextContents())
        .toContain('"Northern Europe"');
      await page.keyboard.type('"Northern Eu');
      await expect
        .poll(async () => (await options.locator('.cm-completionLabel').allTextContents())[0])
        .toBe('Northern Europe');
      await page.waitForTimeout(150);
      await page.keyboard.press('Enter');
      expect(await editorText(page)).toBe('region = Europe AND subregion = "Northern Europe"');
      const northern = europe.filter((c) => c.subregion === 'Northern Europe').length;
      await expect.poll(() => matchCount(page)).toBe(`${northern} of 250 resources match`);
      // The key, unique in every record, has too many values to offer.
      await page.keyboard.type(' AND cca2 = ');
      await page.keyboard.press('Control+Space');
      await page.waitForTimeout(300);
      expect(await options.count()).toBe(0);
    });
  }

  it('390×844: results right after the filter, each match a card: key, fields read, the rest', async () => {
    const page = await withCountries(PHONE);
    await typeFilter(page, 'region = Europe AND landlocked = false');
    const wanted = europe.filter((c) => !c.landlocked);
    await expect.poll(() => matchCount(page)).toBe(`${wanted.length} of 250 resources match`);
    // Right after the filter, in the document (the keyboard's order) and on screen; the
    // explanation and the tree below, collapsed.
    expect(
      await page.evaluate(() => document.getElementById('filter-panel')?.nextElementSibling?.id),
    ).toBe('results-panel');
    const results = await box(page, '#results-panel');
    expect(results.y).toBeLessThan(await box(page, '#explain-details').then((b) => b.y));
    for (const id of ['explain-details', 'ast-details'])
      expect(await page.locator(`#${id}`).getAttribute('open')).toBeNull();
    await page.locator('#explain-details > summary').click();
    expect(await page.locator('#explanation').textContent()).toContain('region is exactly');

    const card = page.locator('#results .card').first();
    await expect.poll(() => card.locator('.row-link').textContent()).toBe(wanted[0]!.cca2);
    expect(await card.locator('.card-read dt').allTextContents()).toEqual(['region', 'landlocked']);
    expect(await card.locator('.card-read dd').allTextContents()).toEqual(['Europe', 'false']);
    // The rest: compact JSON for a message, the others a click away.
    const rest = await card.locator('.card-rest').first().locator('dt').allTextContents();
    expect(rest[0]).toBe('name');
    expect(await card.locator('.card-rest dd').first().textContent()).toBe(
      JSON.stringify(wanted[0]!.name),
    );
    expect(await card.locator('.card-more > summary').textContent()).toMatch(/^\d+ more fields$/);
    // The key and the fields read are whole and on screen, with no sideways scroll.
    for (const selector of ['.row-link', '.card-read dd']) {
      for (const element of await card.locator(selector).all()) {
        const b = (await element.boundingBox())!;
        expect(b.x).toBeGreaterThanOrEqual(0);
        expect(b.x + b.width).toBeLessThanOrEqual(PHONE.width);
        expect(await element.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
      }
    }
    expect(await noSideways(page)).toBe(true);
    // The first card shows on the first screen below the filter.
    expect((await card.boundingBox())!.y).toBeLessThan(
      (await box(page, '#filter-panel')).y + PHONE.height,
    );
  });

  it('1280×800: columns fit their values, the fields read first, messages as compact JSON', async () => {
    const page = await withCountries(LAPTOP);
    await typeFilter(page, 'region = Europe AND landlocked = false');
    const wanted = europe.filter((c) => !c.landlocked);
    await expect.poll(() => matchCount(page)).toBe(`${wanted.length} of 250 resources match`);
    const headers = page.locator('#results thead th');
    await expect
      .poll(async () => (await headers.allTextContents()).slice(0, 4))
      .toEqual(['#', 'cca2', 'region', 'landlocked']);
    const first = page.locator('#results tbody tr').first();
    const names = await headers.allTextContents();
    const nameCell = first.locator('td').nth(names.indexOf('name'));
    expect(await nameCell.getAttribute('title')).toBe(JSON.stringify(wanted[0]!.name));
    // The key and the fields read are whole (no ellipsis) and on screen.
    for (const column of [1, 2, 3]) {
      const cell = first.locator('td').nth(column);
      expect(await cell.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
      const b = (await cell.boundingBox())!;
      expect(b.x + b.width).toBeLessThanOrEqual(LAPTOP.width);
    }
    // Short columns take the width of their values, not an equal share.
    const widths = await headers.evaluateAll((ths) =>
      ths.map((t) => t.getBoundingClientRect().width),
    );
    expect(widths[2]!).toBeLessThan(widths[names.indexOf('name')]!);
    expect(
      await page.locator('#results').evaluate((wrap) => wrap.scrollWidth <= wrap.clientWidth),
    ).toBe(true);
    expect(await noSideways(page)).toBe(true);
  });

  it('follows the window: beside the filter, after it on one column, cards on a phone', async () => {
    const page = await withCountries(LAPTOP);
    const after = () =>
      page.evaluate(() => document.getElementById('filter-panel')?.nextElementSibling?.id);
    const shape = () =>
      page.evaluate(() =>
        document.querySelector('#results table.results')
          ? 'table'
          : document.querySelector('#results .cards')
            ? 'cards'
            : 'none',
      );
    expect(await after()).not.toBe('results-panel');
    expect(await shape()).toBe('table');
    await page.setViewportSize({ width: 800, height: 800 });
    await expect.poll(after).toBe('results-panel');
    expect(await shape()).toBe('table');
    await page.setViewportSize(PHONE);
    await expect.poll(shape).toBe('cards');
    expect(await noSideways(page)).toBe(true);
    await page.setViewportSize(LAPTOP);
    await expect.poll(shape).toBe('table');
    await expect.poll(after).not.toBe('results-panel');
    // Refitted to the wider panel: the table spans it, with no scroll inside.
    await expect
      .poll(() =>
        page.locator('#results').evaluate((wrap) => {
          const table = wrap.querySelector('table')!;
          return Math.abs(table.getBoundingClientRect().width - wrap.clientWidth) <= 1;
        }),
      )
      .toBe(true);
    expect(await noSideways(page)).toBe(true);
  });

  it('has no axe-core violations with the status line, cards, table and prompt, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const viewport of VIEWPORTS) {
        const page = await withCountries(viewport, colorScheme);
        await page.locator('#dataset').selectOption('books');
        await page.locator('#dataset').selectOption('custom');
        await expect.poll(() => page.locator('#data-prompt').isVisible()).toBe(true);
        const name = `${colorScheme} ${viewport.width}, prompt`;
        expect({ name, violations: await axeViolations(page) }).toEqual({ name, violations: [] });
        await dropFile(page, 'main', 'countries.json', JSON.stringify(countries));
        await expect.poll(() => status(page)).toContain('250 records applied');
        await page.locator('#results .card-more > summary, #results tbody tr').first().waitFor();
        const shown = `${colorScheme} ${viewport.width}, results`;
        expect({ shown, violations: await axeViolations(page) }).toEqual({ shown, violations: [] });
      }
    }
  });
});
