import { describe, expect, it } from 'vitest';
import { canonicalAddress, parseRange, rangesOverlap } from './ip-addresses.js';

describe('IP addresses as Compute writes them (ipaddr.js underneath)', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8::/32', '2001:db8::/32'],
    ['::ffff:1.2.3.4', '::ffff:102:304'],
  ])('%s → %s', (text, canonical) => {
    expect(canonicalAddress(text)).toBe(canonical);
  });

  it.each(['010.1.2.3', '1.2.3', '127.1', '0x7f.0.0.1', 'fe80::1%eth0', '1.2.3.4/24', '::g', ''])(
    '%s is not a literal address',
    (text) => {
      expect(canonicalAddress(text)).toBeUndefined();
    },
  );

  it.each(['10.0.0.0/08', '10.0.0.0/33', '2001:db8::/129', '10.0.0.0/'])(
    '%s is not a range',
    (text) => {
      expect(parseRange(text)).toBeUndefined();
    },
  );

  it('ranges overlap within a family only', () => {
    const r = (text: string) => parseRange(text)!;
    expect(rangesOverlap(r('10.0.0.0/8'), r('10.1.2.3'))).toBe(true);
    expect(rangesOverlap(r('10.0.0.0/16'), r('10.1.0.0/16'))).toBe(false);
    expect(rangesOverlap(r('2001:db8::/32'), r('2001:db8:1::/48'))).toBe(true);
    expect(rangesOverlap(r('0.0.0.0/0'), r('::/0'))).toBe(false);
  });
});
