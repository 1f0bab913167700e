// Every body and query is parsed with a zod schema, never cast (STYLE.md 5).
import type { z } from "zod";
import type { AppContext } from "../context";
import { badRequest } from "../errors";

function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Invalid input";
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(firstMessage(result.error));
  return result.data;
}

export async function parseJson<S extends z.ZodType>(c: AppContext, schema: S): Promise<z.output<S>> {
  return parseWith(schema, await jsonBody(c));
}

/** The request's JSON body, not yet parsed with a schema (for a route that checks the common case by hand first). */
export async function jsonBody(c: AppContext): Promise<unknown> {
  try {
    const text = await c.req.text();
    return text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw badRequest("Request body must be JSON", "invalid_json");
  }
}

export function parseQuery<S extends z.ZodType>(c: AppContext, schema: S): z.output<S> {
  return parseWith(schema, c.req.query());
}
