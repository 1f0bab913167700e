// A real D1 for tests that run in Node (the payout chaos test beside a Node relay and wallet service):
// wrangler's getPlatformProxy runs it in workerd, in memory, with every migration applied.
import path from "node:path";
import { readD1Migrations } from "@cloudflare/vitest-plugin";
import { getPlatformProxy } from "wrangler";
import { openDb, type Db } from "../db/client";

export interface NodeD1 {
  db: Db;
  dispose(): Promise<void>;
}

export async function startNodeD1(): Promise<NodeD1> {
  const root = path.join(import.meta.dirname, "..", "..");
  const { env, dispose } = await getPlatformProxy<{ DB: D1Database }>({ configPath: path.join(root, "worker/test/chaos.wrangler.toml"), persist: false });
  for (const migration of await readD1Migrations(path.join(root, "migrations"))) {
    for (const query of migration.queries) await env.DB.prepare(query).run();
  }
  return { db: openDb(env.DB), dispose };
}
