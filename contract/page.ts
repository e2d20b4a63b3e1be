/** @module One page of a list, as every list query answers it: the rows asked for and how many there are in all. */
export type { PageParams } from "./schemas";

export interface Page<T> {
  rows: T[];
  total: number;
}
