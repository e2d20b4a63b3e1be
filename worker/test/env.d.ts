import type { Env as WorkerEnv } from "../env";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: { name: string; queries: string[] }[];
    }
  }
}
