import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";
import type { Db } from "../context";

export function openDb(d1: D1Database): Db {
  return drizzle(d1, { schema });
}

export const nowIso = () => new Date().toISOString();
