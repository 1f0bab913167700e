import type { D1Migration } from "@cloudflare/vitest-plugin";
import type { Env as WorkerEnv } from "../env";

declare global {
  namespace Cloudflare {
    interface GlobalProps {
      mainModule: typeof import("../index");
      durableNamespaces: "GigRoom";
    }
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
