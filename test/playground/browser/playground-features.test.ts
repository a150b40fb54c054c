// The playground's editor help and sharing, checked in Chromium against the built page:
// completion, hover docs, the Fields reference, quick fixes, the list call as curl, gcloud and
// REST, the theme toggle, the operator cheat-sheet, the SQL panel and its dialects, and axe-core
// in every state.
import { forwardingRuleSchema } from '@listkit/service';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fieldDocs } from '../../../playground/src/schema-docs.js';
import {
  axeViolations,
  editorText,
  matchCount,
  setFilter,
  skipBrowser,
  usePlayground,
} from './harness.js';

const options = (page: Page) =>
  page.locator('.cm-tooltip-autocomplete li .cm-completionLabel').allTextContents();

describe.skipIf(skipBrowser)('playground editor help in Chromium', { timeout: 180_000 }, () => {
  const playground = usePlayground();
  const open = (path: string, o?: Parameters<typeof playground.open>[1]) =>
    playground.open(`${playground.base()}${path}`, o);

  /** Enter on the open completion list, after CodeMirror's interaction delay (75 ms). */
  async function accept(page: Page) {
    await page.waitForTimeout(150);
    await page.keyboard.press('Enter');
  }

  async function typeAtEnd(page: Page, text: string) {
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(text);
  }

  it('completes fields, nested paths, label keys, operators, enum values and keywords', async () => {
    const page = await open('/#filter=');
    await typeAtEnd(page, 'IPP');
    await expect.poll(() => options(page)).toContain('IPProtocol');
    await accept(page);
    expect(await editorText(page)).toBe('IPProtocol');
    await page.keyboard.type(' ');
    await page.keyboard.press('Control+Space');
    await expect
      .poll(async () => (await options(page)).sort())
      .toEqual(['=', '!=', '<', '<=', '>', '>=', ':'].sort());
    await accept(page);
    await expect
      .poll(async () => (await options(page)).sort())
      .toEqual(['AH', 'ESP', 'ICMP', 'L3_DEFAULT', 'SCTP', 'TCP', 'UDP']);
    await page.keyboard.type('UD');
    await accept(page);
    expect(await editorText(page)).toBe('IPProtocol = UDP');
    await page.keyboard.type(' ');
    await page.keyboard.press('Control+Space');
    await expect.poll(async () => (await options(page)).sort()).toEqual(['AND', 'NOT', 'OR']);
    await accept(page);
    // The field list is open after AND; typing a path with a dot asks again for what follows it.
    await expect.poll(() => options(page)).toContain('labels');
    await page.keyboard.type('labels.');
    await expect
      .poll(() => options(page))
      .toEqual(expect.arrayContaining(['labels.app', 'labels.env']));
    await page.keyboard.type('env = ');
    await page.keyboard.press('Control+Space');
    await expect.poll(() => options(page)).toEqual(expect.arrayContaining(['dev', 'prod']));
    await page.keyboard.type('prod');
    await page.keyboard.press('Escape');
    expect(await editorText(page)).toBe('IPProtocol = UDP AND labels.env = prod');
    await page.keyboard.type(' metadataFilters.');
    await expect
      .poll(() => options(page))
      .toEqual(
        expect.arrayContaining([
          'metadataFilters.filterMatchCriteria',
          'metadataFilters.filterLabels',
        ]),
      );

    // The regex style: eq/ne, and quoted values.
    await setFilter(page, '(IPProtocol ');
    await page.keyboard.press('Control+Space');
    await expect.poll(() => options(page)).toEqual(expect.arrayContaining(['=', 'eq', 'ne']));
    await page.keyboard.type('eq ');
    await page.keyboard.press('Control+Space');
    await expect.poll(() => options(page)).toContain('"TCP"');
  });

  it('shows hover docs for fields and operators', async () => {
    const page = await open(
      `/#${new URLSearchParams({ filter: 'IPProtocol = TCP OR name:web-*' })}`,
    );
    await page.locator('.cm-content .tok-field').first().hover();
    const tip = page.locator('.cm-tooltip-hover .hover-doc');
    await expect.poll(() => tip.textContent()).toContain('IPProtocol: enum');
    expect(await tip.textContent()).toContain('values AH, ESP, ICMP, L3_DEFAULT, SCTP, TCP, UDP');
    expect(await tip.textContent()).toContain('not sortable');
    await page.mouse.move(0, 0);
    await page.locator('.cm-content .tok-keyword', { hasText: 'OR' }).hover();
    await expect.poll(() => tip.textContent()).toContain('binds tighter than AND');
  });

  it('lists every field of the engine’s schema under “Fields”', async () => {
    const page = await open('/');
    await page.getByRole('heading', { name: 'Fields' }).click();
    const rows = page.locator('#fields tbody tr');
    const docs = fieldDocs(forwardingRuleSchema);
    expect(docs.length).toBeGreaterThan(Object.keys(forwardingRuleSchema.fields).length);
    await expect.poll(() => rows.count()).toBe(docs.length);
    const row = async (path: string) =>
      await page
        .locator('#fields tbody tr', {
          has: page.locator(`th code`, { hasText: new RegExp(`^${path}$`) }),
        })
        .locator('td')
        .allTextContents();
    expect(await row('IPProtocol')).toEqual([
      'enum',
      'AH, ESP, ICMP, L3_DEFAULT, SCTP, TCP, UDP',
      'no',
      'no',
    ]);
    expect(await row('creationTimestamp')).toEqual(['timestamp', '', 'yes', 'no']);
    expect(await row('description')).toEqual(['string', '', 'no', 'yes']);
    expect(await row('labels')).toEqual(['map of string', '', 'no', 'no']);
  });

  it('applies a “did you mean” with a click or Ctrl+.', async () => {
    const page = await open(`/#${new URLSearchParams({ filter: 'nmae = web-*' })}`);
    await page.getByRole('button', { name: 'Replace with name' }).click();
    expect(await editorText(page)).toBe('name = web-*');
    await setFilter(page, 'IPProtocl = TCP');
    await expect.poll(() => page.locator('.cm-lintRange-error').textContent()).toBe('IPProtocl');
    await page.keyboard.press('ControlOrMeta+.');
    expect(await editorText(page)).toBe('IPProtocol = TCP');
    await expect.poll(() => matchCount(page)).toMatch(/^\d+ of 300 resources match$/);
  });

  it('copies the list call as curl, gcloud and a REST URL', async () => {
    const filter = 'labels.env = prod AND name = "it\'s"';
    const page = await open(
      `/#${new URLSearchParams({ filter, orderBy: 'creationTimestamp desc', pageSize: '25' })}`,
    );
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    const rest = `https://compute.googleapis.com/compute/v1/projects/my-project/regions/us-central1/forwardingRules?${new URLSearchParams({ filter, orderBy: 'creationTimestamp desc', maxResults: '25' })}`;
    expect(await page.locator('#rest-url').textContent()).toBe(rest);
    await page.getByRole('button', { name: 'Copy REST URL' }).click();
    await expect.poll(clipboard).toBe(rest);
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    await expect
      .poll(clipboard)
      .toBe(
        `curl -sS \\\n  -H "Authorization: Bearer $(gcloud auth print-access-token)" \\\n  '${rest}'`,
      );
    await page.getByRole('button', { name: 'Copy as gcloud' }).click();
    await expect
      .poll(clipboard)
      .toBe(
        [
          'gcloud compute forwarding-rules list',
          "--project='my-project'",
          "--regions='us-central1'",
          `--filter='labels.env = prod AND name = "it'\\''s"'`,
          "--sort-by='~creationTimestamp'",
          '--page-size=25',
        ].join(' \\\n  '),
      );
  });

  it('switches light, dark and system themes from the keyboard', async () => {
    const page = await open('/', { colorScheme: 'light' });
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.locator('#theme').focus();
    await page.keyboard.press('ArrowDown'); // Light
    await page.keyboard.press('ArrowDown'); // Dark
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
      .toBe('dark');
    expect(await background()).not.toBe(light);
    // Remembered on the next visit.
    const again = await page.context().newPage();
    await again.goto(page.url());
    await again.waitForSelector('body[data-ready="true"]');
    expect(await again.locator('#theme').inputValue()).toBe('dark');
    await again.close();
    await page.locator('#theme').selectOption('system');
    expect(await background()).toBe(light);
  });

  it('states operator precedence in words', async () => {
    const page = await open('/');
    await page.getByText('Operators and precedence').click();
    const sheet = page.locator('#cheat-sheet');
    const text = (await sheet.textContent())?.replace(/\s+/g, ' ');
    expect(text).toContain('OR binds tighter than AND');
    expect(text).toContain('A space between terms is an AND');
  });

  it('shows the SQL and parameters the list call becomes', async () => {
    const page = await open(
      `/#${new URLSearchParams({ filter: 'labels.env = prod', orderBy: 'creationTimestamp desc' })}`,
    );
    await page.getByRole('heading', { name: 'SQL' }).click();
    const sql = page.locator('#sql');
    await expect.poll(() => sql.locator('.sql-text').textContent()).toMatch(/^SELECT /);
    expect(await sql.locator('.sql-text').textContent()).toContain('ORDER BY');
    const params = () => sql.locator('.sql-param').allTextContents();
    expect((await params()).join(' ')).toContain('prod');
    await setFilter(page, 'name = web-prod-1');
    await expect.poll(async () => (await params()).join(' ')).toContain('"web-prod-1"');
    expect((await params()).join(' ')).not.toContain('{');
  });

  it('shows the SQL in the dialect chosen, kept in the link', async () => {
    const viewport = { width: 1280, height: 800 };
    const page = await open(`/#${new URLSearchParams({ filter: 'name = "web-*"' })}`, { viewport });
    await page.getByRole('heading', { name: 'SQL' }).click();
    const sql = page.locator('#sql .sql-text');
    const dialect = page.getByLabel('Dialect');
    expect(await dialect.locator('option').allTextContents()).toEqual([
      'PostgreSQL',
      'SQLite',
      'MySQL / MariaDB',
    ]);
    await dialect.selectOption({ label: 'MySQL / MariaDB' });
    await expect.poll(() => sql.textContent()).toContain("`name` LIKE ? ESCAPE '!'");
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('sql=mysql');
    await dialect.selectOption({ label: 'PostgreSQL' });
    await expect.poll(() => sql.textContent()).toContain('LIKE $1::text');
    await dialect.selectOption({ label: 'SQLite' });
    await expect.poll(() => sql.textContent()).toContain('"name" GLOB ?');
    expect(await sql.textContent()).not.toContain('LIKE');
    const params = await page.locator('#sql .sql-param').allTextContents();
    expect(params[0]).toBe('?1 = "web-*"');
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('sql=sqlite');
    // SQLite has no regex operator: the plan leaves the pattern to the residual, and says so.
    await setFilter(page, 'name eq web-.*');
    const inexact = page.locator('#sql .sql-inexact');
    await expect.poll(() => inexact.textContent()).toContain('sqlite has no regex operator');
    expect(await inexact.textContent()).toContain('Not decided by SQLite alone');

    const shared = await open(`/${await page.evaluate(() => location.hash)}`, { viewport });
    await shared.getByRole('heading', { name: 'SQL' }).click();
    expect(await shared.getByLabel('Dialect').inputValue()).toBe('sqlite');
    await expect.poll(() => shared.locator('#sql .sql-text').textContent()).toContain('GLOB ?');
    await shared.getByLabel('Dialect').selectOption({ label: 'PostgreSQL' });
    await expect
      .poll(() => shared.locator('#sql .sql-text').textContent())
      .toContain('"name" COLLATE "C" ~ $1::text');
    expect(await shared.locator('#sql .sql-inexact').count()).toBe(0);
    await expect.poll(() => shared.evaluate(() => location.hash)).not.toContain('sql=');
  });

  it('has no axe-core violations: light, dark, phone, menus and panels open', async () => {
    const states: [string, Parameters<typeof open>[1]][] = [
      ['light', { colorScheme: 'light' }],
      ['dark', { colorScheme: 'dark' }],
      ['phone', { viewport: { width: 390, height: 844 } }],
    ];
    for (const [name, o] of states) {
      const page = await open(
        `/#${new URLSearchParams({ filter: 'nmae = x AND region = us-east1' })}`,
        o,
      );
      expect({ name, violations: await axeViolations(page) }).toEqual({ name, violations: [] });
      await page.locator('#examples-menu > summary').click();
      for (const id of [
        'data-details',
        'fields-details',
        'sql-details',
        'emulator-details',
        'cheat-sheet',
      ])
        await page.locator(`#${id}`).evaluate((d) => {
          (d as HTMLDetailsElement).open = true;
        });
      await setFilter(page, 'IPProtocol = TCP');
      await page.keyboard.press('Control+Space');
      await page.waitForSelector('.cm-tooltip-autocomplete');
      expect({ name: `${name}, open`, violations: await axeViolations(page) }).toEqual({
        name: `${name}, open`,
        violations: [],
      });
    }
  });
});
