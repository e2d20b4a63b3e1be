import type { SpawnSyncOptions, SpawnSyncReturns, ChildProcess, SpawnOptions } from "node:child_process";
export const root: string;
export const stateDir: string;
export const toolEnv: NodeJS.ProcessEnv;
export function run(command: string, args: string[], options?: SpawnSyncOptions): SpawnSyncReturns<Buffer>;
export function start(command: string, args: string[], options?: SpawnOptions): ChildProcess;
export function freePort(): Promise<number>;
/** `.dev.vars` in `dir` (default: the repository) with a usable APP_SECRET, created or completed. */
export function ensureDevVars(dir?: string): void;
export function applyLocalMigrations(): void;
