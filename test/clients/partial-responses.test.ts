// Partial responses (`fields`), `skip` and the system parameters on every Google API path, over
// HTTP on the listening emulator; run once per store (vitest.config.ts: memory, PGlite, and
// PostgreSQL under .ci/with-postgres.sh). docs/partial-responses.md says what is answered.
import { createEmulator, type Emulator, sampleForwardingRules } from '@listkit/service';
import { google } from 'googleapis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../support/http-call.js';
import { FAKE_TOKEN, googleapisCompute, newRequestId } from '../support/real-clients.js';
import { onStore } from '../support/test-store.js';

const project = 'my-project';
const region = 'us-central1';
const PATH = `/compute/v1/projects/${project}/regions/${region}`;
const PACKAGE = 'com.example.app';
const seeded = sampleForwardingRules(7);
// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read loosely in assertions
type Json = any;

let emulator: Emulator;
let url: string;

beforeAll(async () => {
  emulator = await createEmulator({
    seed: {
      forwardingRules: seeded.map((rule) => ({ project, region, rule })),
      orders: [
        { packageName: PACKAGE, orderId: 'GPA.1', purchaseTime: '2026-06-01T00:00:00Z' },
        { packageName: PACKAGE, orderId: 'GPA.2', purchaseTime: '2026-06-01T00:00:00Z' },
      ],
    },
  });
  url = await emulator.listen(0);
});
afterAll(async () => {
  await emulator?.close();
});

/** Over the listening emulator's socket. */
const call = caller<Json>(() => url, { token: FAKE_TOKEN });

const sortedKeys = (value: object) => Object.keys(value).sort();

describe(onStore('fields on a list: exactly the selected paths, on every page'), () => {
  it('fields=items(name,labels),nextPageToken answers those paths and nothing else', async () => {
    const names: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const query = `maxResults=3&fields=items(name,labels),nextPageToken${token ? `&pageToken=${token}` : ''}`;
      const { status, json } = await call('GET', `${PATH}/forwardingRules?${query}`);
      expect(status).toBe(200);
      expect(sortedKeys(json)).toEqual(json.nextPageToken ? ['items', 'nextPageToken'] : ['items']);
      for (const item of json.items) {
        const rule = seeded.find((r) => r.name === item.name)!;
        expect(item).toEqual(
          rule.labels ? { name: rule.name, labels: rule.labels } : { name: rule.name },
        );
        names.push(item.name);
      }
      token = json.nextPageToken;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(names).toEqual(seeded.map((r) => r.name).sort());
  });

  it('keeps the page token of a projected page usable with or without the mask', async () => {
    const first = await call('GET', `${PATH}/forwardingRules?maxResults=2&fields=nextPageToken`);
    expect(sortedKeys(first.json)).toEqual(['nextPageToken']);
    const next = await call(
      'GET',
      `${PATH}/forwardingRules?maxResults=2&pageToken=${first.json.nextPageToken}`,
    );
    expect(next.json.items.map((r: Json) => r.name)).toEqual(
      seeded
        .map((r) => r.name)
        .sort()
        .slice(2, 4),
    );
  });

  it('answers the same selection in the AIP-161 spelling, and * or empty as everything', async () => {
    const slash = await call('GET', `${PATH}/forwardingRules?fields=items/name,kind`);
    const dots = await call('GET', `${PATH}/forwardingRules?$fields=items.*.name,kind`);
    expect(dots.json).toEqual(slash.json);
    expect(sortedKeys(slash.json)).toEqual(['items', 'kind']);
    const all = await call('GET', `${PATH}/forwardingRules`);
    for (const fields of ['*', '']) {
      expect((await call('GET', `${PATH}/forwardingRules?fields=${fields}`)).json).toEqual(
        all.json,
      );
    }
  });

  it('projects the aggregated list and the operations list', async () => {
    const aggregated = await call(
      'GET',
      `/compute/v1/projects/${project}/aggregated/forwardingRules?fields=items/*/forwardingRules/name`,
    );
    expect(aggregated.status).toBe(200);
    expect(aggregated.json).toEqual({
      items: {
        [`regions/${region}`]: {
          forwardingRules: seeded
            .map((r) => ({ name: r.name }))
            .sort((a, b) => (a.name < b.name ? -1 : 1)),
        },
      },
    });
    const operations = await call('GET', `${PATH}/operations?fields=kind`);
    expect(operations.json).toEqual({ kind: 'compute#operationList' });
  });
});

describe(onStore('fields on get, insert, wait, delete and refunds'), () => {
  it('get answers the selected fields of the rule', async () => {
    const rule = seeded[0]!;
    const labels = rule.labels as Record<string, string> | undefined;
    const { json } = await call(
      'GET',
      `${PATH}/forwardingRules/${rule.name}?fields=name,IPAddress,labels/env`,
    );
    expect(json).toEqual({
      name: rule.name,
      IPAddress: rule.IPAddress,
      ...(labels?.env ? { labels: { env: labels.env } } : labels ? { labels: {} } : {}),
    });
  });

  it('insert, wait and an operation delete answer the selected fields of their operation', async () => {
    const body = {
      name: 'fr-fields',
      IPProtocol: 'TCP',
      portRange: '80',
      target: `projects/${project}/regions/${region}/targetPools/tp`,
    };
    const inserted = await call(
      'POST',
      `${PATH}/forwardingRules?requestId=${newRequestId()}&fields=name,operationType`,
      body,
    );
    expect(inserted.status).toBe(200);
    expect(sortedKeys(inserted.json)).toEqual(['name', 'operationType']);
    expect(inserted.json.operationType).toBe('insert');
    const waited = await call(
      'POST',
      `${PATH}/operations/${inserted.json.name}/wait?fields=status`,
    );
    expect(waited.json).toEqual({ status: 'DONE' });
    const got = await call('GET', `${PATH}/forwardingRules/fr-fields?fields=name`);
    expect(got.json).toEqual({ name: 'fr-fields' });
    const deleted = await call('DELETE', `${PATH}/forwardingRules/fr-fields?fields=operationType`);
    expect(deleted.json).toEqual({ operationType: 'delete' });
    const opDeleted = await call('DELETE', `${PATH}/operations/${inserted.json.name}?fields=*`);
    expect(opDeleted).toEqual({ status: 200, json: {} });
  });

  it('a bad selection is a 400 naming the path, and the method does not run', async () => {
    const body = {
      name: 'fr-never',
      IPProtocol: 'TCP',
      portRange: '81',
      target: `projects/${project}/regions/${region}/targetPools/tp`,
    };
    const refused = await call('POST', `${PATH}/forwardingRules?fields=name,operationTyp`, body);
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toBe(
      "Invalid field selection 'name,operationTyp': unknown field 'operationTyp'; did you mean 'operationType'? (1:6)",
    );
    expect(refused.json.error.errors[0]).toMatchObject({
      reason: 'invalidParameter',
      location: 'fields',
    });
    expect((await call('GET', `${PATH}/forwardingRules/fr-never`)).status).toBe(404);
    const list = await call('GET', `${PATH}/forwardingRules?fields=items(name,lables)`);
    expect(list.json.error.message).toContain(
      "unknown field 'items.lables'; did you mean 'items.labels'? (1:12)",
    );
  });

  it('refunds: the empty answer stays empty; naming a field of it is refused, the order untouched', async () => {
    const refunded = await call(
      'POST',
      `/androidpublisher/v3/applications/${PACKAGE}/orders/GPA.1:refund?fields=*`,
    );
    expect(refunded.status).toBe(204);
    expect(refunded.text).toBe('');
    const refused = await call(
      'POST',
      `/androidpublisher/v3/applications/${PACKAGE}/orders/GPA.2:refund?fields=orderId`,
    );
    expect(refused.status).toBe(400);
    expect(refused.json.error.status).toBe('INVALID_ARGUMENT');
    const order = await call(
      'GET',
      `/androidpublisher/v3/applications/${PACKAGE}/orders/GPA.2?fields=orderId,state`,
    );
    expect(order.json).toEqual({ orderId: 'GPA.2', state: 'PROCESSED' });
  });
});

describe(onStore('skip and the other system parameters, as Compute Engine answers them'), () => {
  it('skip is not a Compute parameter: 400 Cannot bind query parameter, whatever its value', async () => {
    for (const value of ['2', '0', '-1']) {
      const { status, json } = await call('GET', `${PATH}/forwardingRules?skip=${value}`);
      expect(status).toBe(400);
      expect(json.error.message).toBe(
        `Invalid JSON payload received. Unknown name "skip": Cannot bind query parameter. Field 'skip' could not be found in request message.`,
      );
    }
  });

  it('system parameters are never read as list parameters', async () => {
    const all = await call('GET', `${PATH}/forwardingRules`);
    const query =
      'alt=json&prettyPrint=false&quotaUser=filter&key=maxResults&$.xgafv=2&userIp=10.0.0.1&uploadType=media&upload_protocol=raw';
    expect((await call('GET', `${PATH}/forwardingRules?${query}`)).json).toEqual(all.json);
    const noHeader = await call(
      'GET',
      `${PATH}/forwardingRules?access_token=${FAKE_TOKEN}`,
      undefined,
      { token: null },
    );
    expect(noHeader.status).toBe(200);
  });

  it('googleapis sends fields as the user gives it, and gets the projection', async () => {
    const compute = googleapisCompute(url);
    const { data } = await compute.forwardingRules.list({
      project,
      region,
      maxResults: 2,
      fields: 'items(name),nextPageToken',
    });
    expect(sortedKeys(data)).toEqual(['items', 'nextPageToken']);
    expect(data.items).toEqual(
      seeded
        .map((r) => ({ name: r.name }))
        .sort((a, b) => (a.name! < b.name! ? -1 : 1))
        .slice(0, 2),
    );
    const auth = new google.auth.OAuth2();
    auth.setCredentials({ access_token: FAKE_TOKEN });
    const publisher = google.androidpublisher({ version: 'v3', rootUrl: `${url}/`, auth });
    const order = await publisher.orders.get({
      packageName: PACKAGE,
      orderId: 'GPA.2',
      fields: 'state',
    });
    expect(order.data).toEqual({ state: 'PROCESSED' });
  });
});
