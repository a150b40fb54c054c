// The example datasets, by id. `compute` is the default (what a link without one means).
import { books } from './books.js';
import { compute } from './compute.js';
import type { Dataset } from './dataset.js';
import { issues } from './issues.js';

export const DATASETS: readonly Dataset[] = [compute, books, issues];
export const DEFAULT_DATASET = compute;

export const datasetById = (id: string): Dataset | undefined => DATASETS.find((d) => d.id === id);
