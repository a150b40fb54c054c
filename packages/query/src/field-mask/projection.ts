/**
 * What a checked field mask keeps of a value of one type: all of it, some fields of a message,
 * the same selection of every element of a repeated field, or some keys (and/or every value) of
 * a map. Built by `compileFieldMask`, turned into a function once by {@link projector}.
 */
export type Projection =
  | { kind: 'all' }
  | { kind: 'message'; fields: Map<string, Projection> }
  | { kind: 'each'; element: Projection }
  | { kind: 'map'; keys: Map<string, Projection>; values?: Projection };

type Project = (value: unknown) => unknown;

const keep: Project = (value) => value;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets a key on a fresh object, `__proto__` included (a map key a caller may name). */
function put(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    out[key] = value;
  }
}

/**
 * The projection as one function, built once per mask: each message step is a loop over the
 * selected names only (never over the value's own keys), so a page of wide resources costs the
 * selected fields, not the resources' size.
 */
export function projector(p: Projection): Project {
  switch (p.kind) {
    case 'all':
      return keep;
    case 'each': {
      const element = projector(p.element);
      return (value) => (Array.isArray(value) ? value.map((e) => element(e)) : value);
    }
    case 'message': {
      const names = [...p.fields.keys()];
      const parts = names.map((name) => projector(p.fields.get(name)!));
      return (value) => {
        if (!isObject(value)) return value;
        const out: Record<string, unknown> = {};
        for (let i = 0; i < names.length; i++) {
          const name = names[i]!;
          if (!Object.hasOwn(value, name)) continue;
          const part = parts[i]!;
          out[name] = part === keep ? value[name] : part(value[name]);
        }
        return out;
      };
    }
    case 'map': {
      // A key named and also under `*` gets both selections.
      const { values: every } = p;
      const named = new Map(
        [...p.keys].map(([key, q]) => [key, projector(every ? merge(every, q) : q)]),
      );
      const values = every ? projector(every) : undefined;
      return (value) => {
        if (!isObject(value)) return value;
        const out: Record<string, unknown> = {};
        if (values) {
          for (const key of Object.keys(value))
            put(out, key, (named.get(key) ?? values)(value[key]));
          return out;
        }
        for (const [key, part] of named)
          if (Object.hasOwn(value, key)) put(out, key, part(value[key]));
        return out;
      };
    }
  }
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The selected paths in AIP-161 form, sorted (`['*']` for everything). */
export function projectionPaths(p: Projection): string[] {
  const out: string[] = [];
  const walk = (q: Projection, prefix: string): void => {
    const at = (step: string) => (prefix === '' ? step : `${prefix}.${step}`);
    switch (q.kind) {
      case 'all':
        out.push(prefix === '' ? '*' : prefix);
        return;
      case 'each':
        walk(q.element, at('*'));
        return;
      case 'message':
        for (const [name, inner] of q.fields) walk(inner, at(name));
        return;
      case 'map':
        if (q.values) walk(q.values, at('*'));
        for (const [key, inner] of q.keys) {
          walk(inner, at(PLAIN_KEY.test(key) ? key : `\`${key.replaceAll('`', '``')}\``));
        }
    }
  };
  walk(p, '');
  return [...new Set(out)].sort();
}

/** The union of two selections of one type. */
export function merge(a: Projection, b: Projection): Projection {
  if (a.kind === 'all' || b.kind === 'all') return { kind: 'all' };
  if (a.kind === 'each' && b.kind === 'each') {
    return { kind: 'each', element: merge(a.element, b.element) };
  }
  if (a.kind === 'message' && b.kind === 'message') {
    return { kind: 'message', fields: mergeMaps(a.fields, b.fields) };
  }
  if (a.kind === 'map' && b.kind === 'map') {
    const values = a.values && b.values ? merge(a.values, b.values) : (a.values ?? b.values);
    return { kind: 'map', keys: mergeMaps(a.keys, b.keys), ...(values ? { values } : {}) };
  }
  return { kind: 'all' }; // one type never yields two kinds; kept total for safety
}

function mergeMaps(
  a: Map<string, Projection>,
  b: Map<string, Projection>,
): Map<string, Projection> {
  const out = new Map(a);
  for (const [key, p] of b) {
    const existing = out.get(key);
    out.set(key, existing ? merge(existing, p) : p);
  }
  return out;
}
