// Test helpers for the administrator: a signed-in admin token and calls that carry it.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../index";
import type { Env } from "../env";
import { BASE, statusAndBody, type Json } from "./factories";

export const TEST_ADMIN_PIN = "135790";

/** A request to the Worker with optional admin token, member session, client address and settings. */
export async function adminApi(
  path: string,
  opts: { method?: string; adminToken?: string; token?: string; json?: unknown; ip?: string; env?: Partial<Env> } = {},
): Promise<{ status: number; body: Json }> {
  const headers = new Headers();
  if (opts.adminToken) headers.set("x-admin-token", opts.adminToken);
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  if (opts.ip) headers.set("cf-connecting-ip", opts.ip);
  if (opts.json !== undefined) headers.set("content-type", "application/json");
  const ctx = createExecutionContext();
  const request = new Request(`${BASE}${path}`, {
    method: opts.method ?? "GET",
    headers,
    body: opts.json !== undefined ? JSON.stringify(opts.json) : undefined,
  }) as Parameters<typeof worker.fetch>[0];
  const res = await worker.fetch(request, { ...env, ...opts.env }, ctx);
  await waitOnExecutionContext(ctx);
  return statusAndBody(res);
}

/** Signs the admin in with the test PIN from a client address of its own (so no lockout is shared). */
export async function adminSignIn(): Promise<string> {
  const res = await adminApi("/api/admin/auth", { method: "POST", json: { pin: TEST_ADMIN_PIN }, ip: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });
  if (res.status !== 200) throw new Error(`admin sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.adminToken as string;
}

/** A call as the admin. */
export function asAdmin(adminToken: string, path: string, method = "GET", json?: unknown) {
  return adminApi(path, { method, adminToken, json });
}
