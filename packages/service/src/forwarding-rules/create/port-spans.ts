// Port ranges: `80`, `8080-8090`, and how two rules' ports compare.
import { invalid } from './errors.js';
import { PORT_RANGE } from './patterns-and-limits.js';

export type PortSpan = readonly [number, number];

export function parseSpan(value: string): PortSpan | undefined {
  const m = PORT_RANGE.exec(value);
  if (!m) return undefined;
  const low = Number(m[1]);
  const high = m[2] === undefined ? low : Number(m[2]);
  if (low < 1 || high > 65535 || low > high) return undefined;
  return [low, high];
}

/** Checks `portRange`/`ports[]` syntax and range; a single port `90` becomes `90-90`. */
export function normalizePortRange(field: string, value: string): string {
  const m = PORT_RANGE.exec(value);
  if (!m) {
    throw invalid(
      field,
      value,
      "Must be a port or a port range matching '\\d+(?:-\\d+)?', such as 80 or 8080-8090.",
    );
  }
  const span = parseSpan(value);
  if (!span) {
    const low = Number(m[1]);
    const high = m[2] === undefined ? low : Number(m[2]);
    throw invalid(
      field,
      value,
      low > high
        ? `The first port (${low}) must not be greater than the last (${high}).`
        : 'Ports must be within 1-65535.',
    );
  }
  return `${span[0]}-${span[1]}`;
}

/** The ports a rule forwards: its portRange or ports, or every port. */
export function portsOf(rule: Record<string, unknown>): PortSpan[] | 'all' {
  if (rule.allPorts === true) return 'all';
  const spans: PortSpan[] = [];
  const add = (value: unknown) => {
    const span = typeof value === 'string' ? parseSpan(value) : undefined;
    if (span) spans.push(span);
  };
  add(rule.portRange);
  if (Array.isArray(rule.ports)) rule.ports.forEach(add);
  return spans.length > 0 ? spans : 'all';
}

export function portsOverlap(a: PortSpan[] | 'all', b: PortSpan[] | 'all'): boolean {
  if (a === 'all' || b === 'all') return true;
  return a.some(([lo, hi]) => b.some(([lo2, hi2]) => lo <= hi2 && lo2 <= hi));
}

export const portsKey = (ports: PortSpan[] | 'all') =>
  ports === 'all'
    ? 'all'
    : ports
        .map(([lo, hi]) => `${lo}-${hi}`)
        .sort()
        .join(',');
