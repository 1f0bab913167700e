import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";
import type { Db } from "../context";

// One drizzle instance per D1 binding: building one reads the whole schema's relations, which cost a
// noticeable share of a browse request's CPU when done per request. The instance holds no request state.
const instances = new WeakMap<D1Database, Db>();

export function openDb(d1: D1Database): Db {
  let db = instances.get(d1);
  if (!db) {
    db = drizzle(d1, { schema });
    instances.set(d1, db);
  }
  return db;
}

export const nowIso = () => new Date().toISOString();
