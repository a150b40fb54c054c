// References (`https://…/compute/v1/projects/p/regions/r/targetPools/x`, `regions/r/…`, …).

export type Scope = 'global' | 'regions' | 'zones';

export interface Reference {
  project: string;
  scope: Scope;
  /** The region or zone name; '' for global resources. */
  location: string;
  collection: string;
  name: string;
}

const REFERENCE_PATH =
  /^(?:projects\/([^/]+)\/)?(?:(global)|regions\/([^/]+)|zones\/([^/]+))\/([^/]+)\/([^/]+)$/;

/** Reads a resource reference; undefined when it is not one ("The URL is malformed"). */
export function readReference(value: string, project: string): Reference | undefined {
  let path: string;
  if (/^https?:\/\//i.test(value)) {
    const m = /^https?:\/\/[^/]+\/(?:[^?#]*?\/)?(projects\/[^?#]*)$/i.exec(value);
    if (!m) return undefined;
    path = m[1]!;
  } else {
    path = value.replace(/^\/+/, '');
  }
  const m = REFERENCE_PATH.exec(path);
  if (!m) return undefined;
  const scope: Scope = m[2] ? 'global' : m[3] ? 'regions' : 'zones';
  return {
    project: m[1] ?? project,
    scope,
    location: m[3] ?? m[4] ?? '',
    collection: m[5]!,
    name: m[6]!,
  };
}

/** The region of a regional or zonal reference (`us-central1-a` → `us-central1`). */
export function referenceRegion(ref: Reference): string | undefined {
  if (ref.scope === 'regions') return ref.location;
  if (ref.scope === 'zones') return ref.location.replace(/-[a-z]+$/, '');
  return undefined;
}

export const resourcePath = (ref: Reference) =>
  `projects/${ref.project}/${ref.scope === 'global' ? 'global' : `${ref.scope}/${ref.location}`}/${ref.collection}/${ref.name}`;
