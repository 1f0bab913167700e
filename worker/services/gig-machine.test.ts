// The state machine, table-driven through the API: every action × role × status.
import { describe, expect, it } from "vitest";
import { call, claimedJob, payWithDevWallet, postGig, signUp, type Member } from "../test/factories";

type Role = "hirer" | "worker" | "stranger" | "visitor";
type Status = "pending_payment" | "open" | "claimed" | "in_progress" | "needs_revision" | "work_submitted" | "completed" | "disputed" | "cancelled";

const STATUSES: Status[] = ["pending_payment", "open", "claimed", "in_progress", "needs_revision", "work_submitted", "completed", "disputed", "cancelled"];

/** Who may do what, from which statuses (DESIGN.md §4), written out here independently of the code. */
const ALLOWED: Record<string, Partial<Record<Role, Status[]>>> = {
  "start-work": { worker: ["claimed"] },
  submit: { worker: ["in_progress", "needs_revision"] },
  "request-revision": { hirer: ["work_submitted"] },
  approve: { hirer: ["work_submitted"] },
  dispute: { hirer: ["work_submitted"], worker: ["work_submitted"] },
  cancel: { hirer: ["pending_payment", "open", "claimed"], worker: ["claimed"] },
};

const BODIES: Record<string, unknown> = {
  submit: { workSubmission: "All done, see the link." },
  "request-revision": { note: "Please use the orange from our brand." },
  dispute: { reason: "The delivered file is empty." },
};

const step = async (gigId: string, action: string, who: Member) => {
  const r = await call(`/api/gigs/${gigId}/${action}`, who.token, "POST", BODIES[action]);
  if (r.status !== 200) throw new Error(`${action}: ${r.status} ${JSON.stringify(r.body)}`);
};

/** A job request in the given status, with its hirer, its worker (once claimed) and a stranger. */
async function jobIn(status: Status) {
  const stranger = await signUp({ lightningAddress: "stranger@wallet.test" });
  if (status === "pending_payment" || status === "open") {
    const hirer = await signUp({ lightningAddress: "hirer@wallet.test" });
    const worker = await signUp({ lightningAddress: "worker@wallet.test" });
    const posted = await postGig(hirer);
    if (status === "open") await payWithDevWallet(posted.paymentRequest!);
    return { gigId: posted.gig.id as string, hirer, worker, stranger };
  }
  const job = await claimedJob();
  const walk: Record<Exclude<Status, "pending_payment" | "open" | "claimed">, [string, "hirer" | "worker"][]> = {
    in_progress: [["start-work", "worker"]],
    work_submitted: [["start-work", "worker"], ["submit", "worker"]],
    needs_revision: [["start-work", "worker"], ["submit", "worker"], ["request-revision", "hirer"]],
    completed: [["start-work", "worker"], ["submit", "worker"], ["approve", "hirer"]],
    disputed: [["start-work", "worker"], ["submit", "worker"], ["dispute", "hirer"]],
    cancelled: [["cancel", "hirer"]],
  };
  if (status !== "claimed") for (const [action, by] of walk[status]) await step(job.gigId, action, job[by]);
  return { ...job, stranger };
}

function expected(action: string, role: Role, status: Status): number {
  if (role === "visitor") return 401;
  // Before a claim the would-be worker is a stranger to the gig.
  const effective: Role = role === "worker" && (status === "pending_payment" || status === "open") ? "stranger" : role;
  // An unpaid job request does not exist to anyone but its poster (hidden-gigs.test.ts).
  if (status === "pending_payment" && effective === "stranger") return 404;
  const allowed = ALLOWED[action]![effective];
  if (!allowed) return 403;
  return allowed.includes(status) ? 200 : 409;
}

describe("gig state machine", () => {
  for (const status of STATUSES) {
    it(`from ${status}: each action by each role is allowed or refused as the table says`, async () => {
      // A refused action changes nothing (checked below), so one gig serves until an action succeeds.
      let gig = await jobIn(status);
      for (const action of Object.keys(ALLOWED)) {
        for (const role of ["visitor", "stranger", "hirer", "worker"] as Role[]) {
          const token = role === "visitor" ? undefined : gig[role].token;
          const res = await call(`/api/gigs/${gig.gigId}/${action}`, token, "POST", BODIES[action]);
          expect(res.status, `${action} by ${role} from ${status}: ${JSON.stringify(res.body)}`).toBe(expected(action, role, status));
          if (res.status !== 200) {
            expect(res.body.message).toEqual(expect.any(String));
            const after = await call(`/api/gigs/${gig.gigId}`, gig.hirer.token);
            expect(after.body.status, "a refused action changes nothing").toBe(status);
          } else {
            gig = await jobIn(status);
          }
        }
      }
    });
  }
});
