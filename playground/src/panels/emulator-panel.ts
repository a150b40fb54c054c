// "Compare with a running emulator": the same list call sent to `listkit serve`, page by page.
// Only Compute's forwarding rules live in the emulator, so for other data it says so instead.
import { byId, h } from '../dom.js';
import { Comparison } from '../emulator-compare.js';
import type { Store } from '../store.js';
import { isCompute } from './list-call-panel.js';

export function mountEmulatorPanel(store: Store): void {
  const el = {
    url: byId<HTMLInputElement>('emulator-url'),
    project: byId<HTMLInputElement>('emulator-project'),
    region: byId<HTMLInputElement>('emulator-region'),
    compare: byId<HTMLButtonElement>('emulator-compare'),
    next: byId<HTMLButtonElement>('emulator-next'),
    result: byId('emulator-result'),
    onlyCompute: byId('emulator-only-compute'),
    controls: byId('emulator-controls'),
  };
  let comparison: Comparison | undefined;
  el.url.value = location.pathname.includes('/playground')
    ? location.origin
    : 'http://127.0.0.1:8787';
  el.project.value = 'my-project';
  el.region.value = 'us-central1';

  const step = async (start: boolean) => {
    el.compare.disabled = true;
    el.next.disabled = true;
    try {
      if (start || !comparison) {
        const { filter, orderBy, pageSize } = store.state;
        comparison = await Comparison.start(
          { url: el.url.value, project: el.project.value, region: el.region.value },
          { filter, orderBy, pageSize },
          store.view.resources,
          store.view.schema,
        );
        el.result.replaceChildren();
        if (store.state.data !== undefined)
          el.result.append(
            h(
              'p',
              { class: 'hint' },
              'The data here is edited: the emulator lists its own rules, so the pages may differ for that reason alone.',
            ),
          );
      }
      el.result.append(await comparison.step());
    } catch (error) {
      el.result.append(h('p', { class: 'verdict differ' }, (error as Error).message));
    } finally {
      el.compare.disabled = false;
      el.next.disabled = !comparison || comparison.done;
    }
  };
  el.compare.addEventListener('click', () => void step(true));
  el.next.addEventListener('click', () => void step(false));
  store.on('data', () => {
    const compute = isCompute(store);
    el.onlyCompute.hidden = compute;
    el.controls.hidden = !compute;
    if (!compute) el.result.replaceChildren();
  });
}
