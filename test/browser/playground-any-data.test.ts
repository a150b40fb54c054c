// The playground on anyone's resources, in Chromium: NDJSON pasted and filtered with an inferred
// schema, a JSON Schema and a .proto pasted and used, a link that restores schema, data and
// expectations in a fresh page, expectations passing and failing, the history, the example
// datasets, completion order, and every screen without sideways scrolling.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  axeViolations,
  editorText,
  matchCount,
  setFilter,
  skipBrowser,
  typeFilter,
  usePlayground,
} from './harness.js';

/** A GitHub-issue-like export nobody declared a schema for: NDJSON, nested users, labels. */
const issues = Array.from({ length: 12 }, (_, i) => ({
  id: 100 + i,
  title: i % 3 === 0 ? `Crash number ${i}` : `Question ${i}`,
  state: i % 2 === 0 ? 'open' : 'closed',
  user: { login: i % 4 === 0 ? 'octocat' : 'hubot' },
  labels: [{ name: i % 3 === 0 ? 'bug' : 'question' }],
  comments: i,
  created_at: `2025-0${1 + (i % 9)}-01T00:00:00Z`,
}));
const ndjson = issues.map((r) => JSON.stringify(r)).join('\n');
const expectedIds = (keep: (r: (typeof issues)[number]) => boolean) =>
  issues.filter(keep).map((r) => String(r.id));

const rows = (page: Page) => page.locator('#results tbody tr td:nth-child(2)').allTextContents();

async function pasteData(page: Page, text: string) {
  await page.locator('#data-details > summary').click();
  await page.locator('#data-text').fill(text);
  await page.locator('#data-apply').click();
}

async function pasteSchema(page: Page, text: string) {
  await page.locator('#fields-details > summary').click();
  await page.locator('#schema-editor > summary').click();
  await page.locator('#schema-text').fill(text);
  await page.locator('#schema-apply').click();
}

const noSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

describe.skipIf(skipBrowser)('the playground on any data in Chromium', { timeout: 180_000 }, () => {
  const playground = usePlayground();
  const open = (path: string, options?: Parameters<typeof playground.open>[1]) =>
    playground.open(`${playground.base()}${path}`, options);

  it('filters pasted NDJSON of a non-Compute resource with a schema inferred from it', async () => {
    const page = await open('/');
    await pasteData(page, ndjson);
    await expect
      .poll(() => page.locator('#data-summary').textContent())
      .toBe('12 resources (edited)');
    expect(await page.locator('#schema-origin').textContent()).toContain(
      'key: id; inferred from 12 records',
    );
    const fields = await page.locator('#fields tbody th').allTextContents();
    expect(fields).toEqual(expect.arrayContaining(['user.login', 'labels.name', 'created_at']));
    const filter = 'state = open AND labels.name:bug AND created_at >= 2025-01-01T00:00:00Z';
    await typeFilter(page, filter);
    const wanted = expectedIds((r) => r.state === 'open' && r.labels[0]!.name === 'bug');
    await expect.poll(() => matchCount(page)).toBe(`${wanted.length} of 12 resources match`);
    await expect.poll(() => rows(page)).toEqual(wanted);
    // Only Compute's call is a gcloud command, and only Compute is in the emulator.
    expect(await page.locator('#copy-gcloud').isVisible()).toBe(false);
    expect(await page.locator('#rest-url').textContent()).toContain('pageSize=10');
    await page.locator('#emulator-details > summary').click();
    expect(await page.locator('#emulator-only-compute').isVisible()).toBe(true);
    expect(await page.locator('#emulator-compare').isVisible()).toBe(false);
  });

  it('has the data in its box as the Data panel opens, so what is pasted next replaces it', async () => {
    // Filled on 'toggle', a task after the click, the box was empty when a paste landed and then
    // got the data too: the two were applied together as one broken JSON text.
    const page = await open('/');
    const filledAtOnce = await page.evaluate(() => {
      document.querySelector<HTMLElement>('#data-details > summary')!.click();
      return (document.getElementById('data-text') as HTMLTextAreaElement).value.length > 0;
    });
    expect(filledAtOnce).toBe(true);
    await page.locator('#data-text').fill(ndjson);
    await page.locator('#data-apply').click();
    await expect
      .poll(() => page.locator('#data-summary').textContent())
      .toBe('12 resources (edited)');
  });

  it('takes data and a .proto dropped on the page', async () => {
    const page = await open('/');
    const drop = (name: string, text: string) =>
      page.evaluate(
        (file) => {
          const transfer = new DataTransfer();
          transfer.items.add(new File([file.text], file.name));
          document.body.dispatchEvent(
            new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }),
          );
        },
        { name, text },
      );
    await drop('issues.ndjson', ndjson);
    await expect
      .poll(() => page.locator('#data-summary').textContent())
      .toBe('12 resources (edited)');
    await drop(
      'issue.proto',
      'syntax = "proto3";\nmessage Issue {\n  int64 id = 1;\n  int32 comments = 2;\n}\n',
    );
    await expect
      .poll(() => page.locator('#schema-origin').textContent())
      .toContain('from the pasted .proto');
    expect(await page.locator('#fields tbody th').allTextContents()).toEqual(['id', 'comments']);
  });

  it('uses a pasted JSON Schema, then a pasted .proto message', async () => {
    const page = await open('/');
    await pasteData(page, ndjson);
    await expect.poll(() => page.locator('#data-summary').textContent()).toContain('12 resources');
    const jsonSchema = {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        title: { type: 'string' },
        state: { enum: ['open', 'closed'] },
        comments: { type: 'integer' },
      },
    };
    await pasteSchema(page, JSON.stringify(jsonSchema, null, 2));
    await expect
      .poll(() => page.locator('#schema-origin').textContent())
      .toContain('from the pasted JSON Schema');
    // An enum now: a value outside it is refused, which an inferred string field would accept.
    await setFilter(page, 'state = opne');
    await expect
      .poll(() => page.locator('#filter-error').textContent())
      .toContain("did you mean 'open'?");
    await setFilter(page, 'state = closed AND comments > 4');
    const wanted = expectedIds((r) => r.state === 'closed' && r.comments > 4);
    await expect.poll(() => matchCount(page)).toBe(`${wanted.length} of 12 resources match`);

    const proto = [
      'syntax = "proto3";',
      'package octo.v1;',
      'message Issue {',
      '  int64 id = 1;',
      '  string title = 2;',
      '  int32 comments = 3;',
      '}',
    ].join('\n');
    await page.locator('#schema-text').fill(proto);
    expect(await page.locator('#schema-kind').textContent()).toBe('Read as .proto');
    await page.locator('#schema-apply').click();
    await expect
      .poll(() => page.locator('#schema-origin').textContent())
      .toContain('from the pasted .proto');
    await expect
      .poll(() => page.locator('#filter-error').textContent())
      .toContain("unknown field 'state'");
    await setFilter(page, 'comments >= 10');
    await expect.poll(() => matchCount(page)).toBe('2 of 12 resources match');
  });

  it('restores schema, data and expectations from a shared link in a fresh page', async () => {
    const page = await open('/');
    await pasteData(page, ndjson);
    await expect.poll(() => page.locator('#data-summary').textContent()).toContain('12 resources');
    await page.locator('#fields-details > summary').click();
    await page.locator('#schema-key').selectOption('id');
    await page.locator('#schema-searchable').fill('title');
    await page.locator('#schema-options-apply').click();
    await setFilter(page, 'Crash');
    const crashes = expectedIds((r) => r.title.startsWith('Crash'));
    await expect.poll(() => matchCount(page)).toBe(`${crashes.length} of 12 resources match`);
    await page.locator('#tests-add').click();
    await setFilter(page, 'user.login = octocat');
    await expect.poll(() => page.url()).toContain('filter=user.login+%3D+octocat');
    expect(page.url()).toContain('tests=');
    expect(page.url()).toContain('searchable=title');
    const link = page.url();

    const again = await open(link.slice(link.indexOf('/#')));
    expect(await editorText(again)).toBe('user.login = octocat');
    expect(await again.locator('#data-summary').textContent()).toBe('12 resources (edited)');
    expect(await again.locator('#schema-origin').textContent()).toContain('inferred');
    expect(await again.locator('#schema-searchable').inputValue()).toBe('title');
    await expect.poll(() => again.locator('#tests-summary').textContent()).toBe('1 of 1 pass');
    expect(await again.locator('#tests-list .test-filter').textContent()).toBe('Crash');
    await expect
      .poll(() => matchCount(again))
      .toBe(`${expectedIds((r) => r.user.login === 'octocat').length} of 12 resources match`);
  });

  it('shows expectations passing and failing as the data changes', async () => {
    const page = await open('/#dataset=books&filter=state+%3D+PUBLISHED&sample=40');
    await expect
      .poll(() => page.locator('#data-summary').textContent())
      .toBe('40 books (generated)');
    await page.locator('#tests-add').click();
    await expect.poll(() => page.locator('#tests-summary').textContent()).toBe('1 of 1 pass');
    expect(await page.locator('#tests-list .test').getAttribute('data-status')).toBe('pass');
    // Fewer books: the expected keys past the 20th are no longer matched.
    await page.locator('#data-details > summary').click();
    await page.locator('#sample-count').fill('20');
    await page.locator('#data-generate').click();
    await expect.poll(() => page.locator('#tests-summary').textContent()).toBe('0 of 1 pass');
    expect(await page.locator('#tests-list .test').getAttribute('data-status')).toBe('fail');
    expect(await page.locator('#tests-list .test-verdict').textContent()).toContain(
      'fails: does not match publishers/',
    );
    // Expect what it matches now: it passes again.
    await page.getByRole('button', { name: 'Expect current matches' }).click();
    await expect.poll(() => page.locator('#tests-summary').textContent()).toBe('1 of 1 pass');
    const download = page.waitForEvent('download');
    await page.locator('#tests-export').click();
    expect((await download).suggestedFilename()).toBe('listkit-tests.json');
  });

  it('restores a filter from the history, kept across a reload', async () => {
    const page = await open('/#dataset=issues&filter=state+%3D+open');
    await expect
      .poll(() => page.locator('#data-summary').textContent())
      .toBe('300 issues (generated)');
    await typeFilter(page, 'comments > 3');
    await expect
      .poll(() => page.locator('#history-list li').first().textContent())
      .toContain('comments > 3');
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await page.locator('#history-details > summary').click();
    const entries = page.locator('#history-list .history-restore');
    await expect.poll(() => entries.allTextContents()).toContain('comments > 3');
    await page.getByRole('button', { name: 'comments > 3' }).first().click();
    await expect.poll(() => editorText(page)).toBe('comments > 3');
    await expect.poll(() => page.url()).toContain('filter=comments+%3E+3');
  });

  it('offers the example datasets, each with its examples', async () => {
    const page = await open('/');
    await page.locator('#dataset').selectOption('books');
    await expect
      .poll(() => page.locator('#data-summary').textContent())
      .toBe('300 books (generated)');
    expect(await editorText(page)).toContain('state = PUBLISHED');
    await expect.poll(() => page.url()).toContain('dataset=books');
    await page.locator('#examples-menu > summary').click();
    await page.locator('a[data-example="issues-open-bugs"]').click();
    await expect
      .poll(() => page.locator('#data-summary').textContent())
      .toBe('300 issues (generated)');
    expect(await editorText(page)).toBe('state = open AND labels.name:bug');
    expect(await page.locator('#dataset').inputValue()).toBe('issues');
  });

  it('completes a container before a longer leaf, then its keys', async () => {
    const page = await open('/#filter=');
    await page.locator('.cm-content').click();
    await page.keyboard.type('lab');
    const options = page.locator('.cm-tooltip-autocomplete li .cm-completionLabel');
    // The names that begin with it, shorter first; then those that merely contain its letters.
    await expect
      .poll(async () => (await options.allTextContents()).slice(0, 3))
      .toEqual(['labels', 'labelFingerprint', 'serviceLabel']);
    // Enter after CodeMirror's interaction delay (75 ms), as a person would.
    await page.waitForTimeout(150);
    await page.keyboard.press('Enter');
    await page.keyboard.type('.');
    await expect.poll(() => editorText(page)).toBe('labels.');
    await expect
      .poll(() => options.allTextContents())
      .toEqual(expect.arrayContaining(['labels.env', 'labels.team']));
  });

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ])
    it(`fits ${viewport.width}×${viewport.height} with no sideways scroll, on every dataset`, async () => {
      const long = `name = "${'x'.repeat(120)}`;
      for (const path of [
        '/',
        '/#dataset=books&filter=',
        '/#dataset=issues&filter=',
        `/#${new URLSearchParams({ filter: long })}`,
      ]) {
        const page = await open(path, { viewport });
        await page.waitForSelector('#results table, #results .cards, #filter-error:not([hidden])');
        for (const id of [
          'data-details',
          'fields-details',
          'sql-details',
          'history-details',
          'explain-details',
          'ast-details',
        ])
          await page.locator(`#${id}`).evaluate((d) => {
            (d as HTMLDetailsElement).open = true;
          });
        expect({ path, fits: await noSideways(page) }).toEqual({ path, fits: true });
      }
    });

  it('keeps caret diagrams unwrapped (they scroll) so the caret stays under its text', async () => {
    const filter = `labels.env = prod AND description:"${'y'.repeat(60)} AND name = "web`;
    const page = await open(`/#${new URLSearchParams({ filter })}`, {
      viewport: { width: 390, height: 844 },
    });
    const box = page.locator('#filter-error');
    await expect.poll(() => box.isVisible()).toBe(true);
    const lines = ((await box.textContent()) ?? '').split('\n');
    const caretLine = lines.findIndex((l) => /\^/.test(l));
    expect(caretLine).toBeGreaterThan(0);
    expect(await box.evaluate((e) => getComputedStyle(e).whiteSpace)).toBe('pre');
    expect(await box.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
    expect(await noSideways(page)).toBe(true);
  });

  it('shows at least 8 rows, keys on one line, above the fold at 1280×800', async () => {
    const page = await open('/', { viewport: { width: 1280, height: 800 } });
    await page.waitForSelector('#results tbody tr');
    const shown = await page.evaluate(() => {
      const keys = [...document.querySelectorAll('#results tbody td.key button')];
      return {
        aboveFold: keys.filter((k) => k.getBoundingClientRect().bottom <= innerHeight).length,
        oneLine: keys.every(
          (k) => k.getClientRects().length === 1 && k.scrollWidth <= k.clientWidth,
        ),
      };
    });
    expect(shown.aboveFold).toBeGreaterThanOrEqual(8);
    expect(shown.oneLine).toBe(true);
    expect(
      await page.locator('#results').evaluate((wrap) => wrap.scrollWidth <= wrap.clientWidth),
    ).toBe(true);
  });

  it('has no axe-core violations with the new panels open, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await open('/#dataset=books&filter=state+%3D+PUBLISHED', { colorScheme });
      await page.locator('#tests-add').click();
      await expect.poll(() => page.locator('#tests-summary').textContent()).toBe('1 of 1 pass');
      for (const id of ['data-details', 'fields-details', 'schema-editor', 'history-details'])
        await page.locator(`#${id}`).evaluate((d) => {
          (d as HTMLDetailsElement).open = true;
        });
      expect({ colorScheme, violations: await axeViolations(page) }).toEqual({
        colorScheme,
        violations: [],
      });
    }
  });
});
