// A world-countries-like data set for the browser tests (250 records shaped like the
// world-countries package's: a message-valued name, lists, maps, six regions of unequal size),
// made here so the tests need no download. Deterministic: the same records every run.

/** The regions and how many countries each has, the most first (as in world-countries). */
export const REGIONS: readonly [string, number][] = [
  ['Africa', 59],
  ['Americas', 56],
  ['Europe', 53],
  ['Asia', 50],
  ['Oceania', 27],
  ['Antarctic', 5],
];

const letter = (n: number) => String.fromCharCode(65 + (n % 26));

export interface Country {
  name: { common: string; official: string };
  tld: string[];
  cca2: string;
  cca3: string;
  independent: boolean;
  status: string;
  currencies: Record<string, { name: string; symbol: string }>;
  capital: string[];
  region: string;
  subregion: string;
  languages: Record<string, string>;
  latlng: number[];
  landlocked: boolean;
  area: number;
  population: number;
}

export const countries: Country[] = REGIONS.flatMap(([region, count]) =>
  Array.from({ length: count }, (_, j) => ({ region, j })),
).map(({ region, j }, i) => ({
  name: { common: `${region} Country ${j + 1}`, official: `The Republic of ${region} ${j + 1}` },
  tld: [`.${letter(i / 26)}${letter(i)}`.toLowerCase()],
  cca2: `${letter(i / 26)}${letter(i)}`,
  cca3: `${letter(i / 676)}${letter(i / 26)}${letter(i)}`,
  independent: i % 7 !== 0,
  status: i % 11 === 0 ? 'user-assigned' : 'officially-assigned',
  currencies: { [`${letter(i)}${letter(i + 3)}D`]: { name: `Dollar ${i}`, symbol: '$' } },
  capital: [`Capital ${i}`],
  region,
  subregion: `${['Northern', 'Southern', 'Eastern', 'Western'][j % 4]} ${region}`,
  languages: (j % 3 === 0 ? { eng: 'English', fra: 'French' } : { eng: 'English' }) as Record<
    string,
    string
  >,
  latlng: [((i * 37) % 180) - 90, ((i * 71) % 360) - 180],
  landlocked: j % 5 === 0,
  area: 1000 + ((i * 7919) % 900_000),
  population: 10_000 + ((i * 104_729) % 90_000_000),
}));
