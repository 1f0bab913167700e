// A job paid in milestones (issue 28), driven through the API as the hirer and the worker would: post a plan,
// fund a milestone, deliver it, approve or dispute it. Shared by the milestone tests in worker/services.
import { expect } from "vitest";
import { api, approveInterest, call, payWithDevWallet, signUp, statusAndBody, type Json, type Member } from "./factories";

export type Plan = { title: string; amount: number; days?: number }[];

/** Three milestones: 10,000 + 20,000 + 30,000 = 60,000 sats. */
export const PLAN: Plan = [
  { title: "Wireframes", amount: 10_000 },
  { title: "Design", amount: 20_000 },
  { title: "Build", amount: 30_000 },
];

/** An answer's body when it succeeded (200 or 201); otherwise throws, naming `what` failed. */
export function ok(r: { status: number; body: Json }, what: string): Json {
  if (r.status !== 200 && r.status !== 201) throw new Error(`${what} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export interface Job {
  hirer: Member;
  worker: Member;
  gigId: string;
  hirerAddress: string;
  workerAddress: string;
}

/** A hirer and a worker, each signed up with a Lightning address of their own. */
export async function hirerAndWorker() {
  const tag = crypto.randomUUID().slice(0, 8);
  const hirerAddress = `hirer${tag}@wallet.test`;
  const workerAddress = `worker${tag}@wallet.test`;
  const hirer = await signUp({ lightningAddress: hirerAddress, displayName: "Hirer" });
  const worker = await signUp({ lightningAddress: workerAddress, displayName: "Worker" });
  return { hirer, worker, hirerAddress, workerAddress };
}

/** A job request with a plan as the hirer posts it: not yet paid. `posted` is what the post answers. */
export async function postPlanned(plan: Plan = PLAN, title = "Build a shop") {
  const members = await hirerAndWorker();
  const posted = ok(
    await call("/api/gigs", members.hirer.token, "POST", {
      gigType: "job_request",
      title,
      description: "An online shop that takes sats, in steps.",
      category: "Development",
      payment: plan.reduce((s, m) => s + m.amount, 0),
      timeframe: 14,
      milestones: plan,
    }),
    "post",
  );
  const job: Job = { ...members, gigId: posted.gig.id as string };
  return { job, posted };
}

/** Posted, milestone 1 paid, and claimed by the worker (not started). */
export async function plannedJob(plan: Plan = PLAN, title?: string): Promise<Job> {
  const { job, posted } = await postPlanned(plan, title);
  ok(await payWithDevWallet(posted.paymentRequest), "pay milestone 1");
  await approveInterest(job.gigId, job.hirer, job.worker);
  ok(await call(`/api/gigs/${job.gigId}/claim`, job.worker.token, "POST"), "claim");
  return job;
}

/** The hirer asks for milestone `n`'s invoice (on the given D1 binding, else the test's own). */
export async function fundInvoice(job: Job, n: number, DB?: D1Database) {
  return statusAndBody(await api(`/api/gigs/${job.gigId}/milestones/${n}/fund`, { method: "POST", token: job.hirer.token, env: DB ? { DB } : undefined }));
}

/** The hirer funds milestone `n`: asks for its invoice and pays it with the dev wallet. Answers the invoice. */
export async function fund(job: Job, n: number) {
  const invoice = ok(await fundInvoice(job, n), `fund milestone ${n}`);
  expect(ok(await payWithDevWallet(invoice.paymentRequest), `pay milestone ${n}`)).toMatchObject({ outcome: "funded" });
  return invoice;
}

/** The worker starts and submits milestone `n` (the current one). */
export async function deliver(job: Job, n: number) {
  ok(await call(`/api/gigs/${job.gigId}/milestones/${n}/start-work`, job.worker.token, "POST"), `start ${n}`);
  ok(await call(`/api/gigs/${job.gigId}/milestones/${n}/submit`, job.worker.token, "POST", { workSubmission: `Milestone ${n} is done.` }), `submit ${n}`);
}

/** The hirer approves milestone `n`. */
export const approve = async (job: Job, n: number) => ok(await call(`/api/gigs/${job.gigId}/milestones/${n}/approve`, job.hirer.token, "POST"), `approve ${n}`);

/** The hirer disputes milestone `n`. */
export const dispute = async (job: Job, n: number) =>
  ok(await call(`/api/gigs/${job.gigId}/milestones/${n}/dispute`, job.hirer.token, "POST", { reason: "Half of the pages are missing." }), `dispute ${n}`);

/** The gig's details as `as` (the hirer unless told) reads them. */
export const gigOf = async (job: Job, as: Member = job.hirer) => ok(await call(`/api/gigs/${job.gigId}`, as.token), "get gig");

/**
 * Milestone 1 delivered and approved (paid out); milestone 2 funded (and milestone 3 too, with `fundThird`),
 * then delivered and disputed by the hirer.
 */
export async function disputeSecond(job: Job, { fundThird = false } = {}) {
  await deliver(job, 1);
  await approve(job, 1);
  await fund(job, 2);
  if (fundThird) await fund(job, 3);
  await deliver(job, 2);
  await dispute(job, 2);
}
