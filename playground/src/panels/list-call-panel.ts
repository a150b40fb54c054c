// The list call written out: the REST URL, and copy as curl, REST URL or (Compute only) gcloud.
// Compute's call takes its project and region from the emulator comparison's fields.
import type { ListCallStyle } from '../datasets/dataset.js';
import { byId } from '../dom.js';
import {
  collectionUrl,
  curlFor,
  gcloudCommand,
  type ListCallTarget,
  restUrl,
} from '../list-call.js';
import type { Store } from '../store.js';
import { copy } from '../ui.js';

/** Whether the page lists Compute's forwarding rules with their own schema. */
export const isCompute = (store: Store) =>
  store.view.dataset.compute && !store.state.inferred && store.state.schemaText === undefined;

export function mountListCallPanel(store: Store): void {
  const el = {
    restUrl: byId('rest-url'),
    copyCurl: byId<HTMLButtonElement>('copy-curl'),
    copyGcloud: byId<HTMLButtonElement>('copy-gcloud'),
    copyRest: byId<HTMLButtonElement>('copy-rest'),
    gcloudNote: byId('gcloud-note'),
    project: byId<HTMLInputElement>('emulator-project'),
    region: byId<HTMLInputElement>('emulator-region'),
  };
  const computeTarget = (): ListCallTarget => ({
    origin: 'https://compute.googleapis.com',
    project: el.project.value || 'my-project',
    region: el.region.value || 'us-central1',
  });
  const query = () => {
    const { filter, orderBy, pageSize } = store.state;
    return { filter, orderBy, pageSize };
  };
  const url = () => {
    if (isCompute(store)) return restUrl(computeTarget(), query());
    const custom = store.state.inferred || store.state.schemaText !== undefined;
    return collectionUrl(custom ? CUSTOM_CALL : store.view.dataset.listCall, query());
  };
  const render = () => {
    el.restUrl.textContent = url();
    const compute = isCompute(store);
    el.copyGcloud.hidden = !compute;
    el.gcloudNote.hidden = compute;
  };
  el.copyCurl.addEventListener('click', () => copy(curlFor(url()), 'curl command'));
  el.copyGcloud.addEventListener('click', () =>
    copy(gcloudCommand(computeTarget(), query()), 'gcloud command'),
  );
  el.copyRest.addEventListener('click', () => copy(url(), 'REST URL'));
  el.project.addEventListener('input', render);
  el.region.addEventListener('input', render);
  store.on(['evaluation', 'query', 'data'], render);
}

/** A collection of the person's own: an AIP-132 List at a placeholder address. */
const CUSTOM_CALL: ListCallStyle = {
  origin: 'https://your-api.example.com',
  path: '/v1/resources',
  pageSizeParam: 'pageSize',
};
