/**
 * @module The contract's request schemas, and zod with them, as a chunk of their own that forms load when they
 * first show, not in the initial bundle (docs/spa.md "Code splitting").
 */
export const loadContractSchemas = () => import("#contract/schemas");

export type ContractSchemas = Awaited<ReturnType<typeof loadContractSchemas>>;

/** The experiments' schemas (contract/experiments.ts), with zod: a chunk that only the experiment editor loads. */
export const loadExperimentSchemas = () => import("#contract/experiments");
