// One of everything (SPEC.md §2), made through the API for the screen walk: a hirer and a worker with
// profiles and Lightning addresses, gigs in every state a screen shows (open with interest, awaiting
// payment, claimed with a chat, completed with reviews, disputed), a service offering, a portfolio item,
// notifications, a report and a suggestion.
import { apiJson, type SignedInUser } from "./api";
import { claimedJob, fundedJob, getGig, member, submittedJob, uniqueTitle, type GigView, type Member } from "./gigs";

export type { Member, NotificationView } from "./gigs";

export interface SeededGig {
  id: string;
  title: string;
}

export interface World {
  hirer: Member;
  worker: Member;
  /** Open job of the hirer; the worker sent an interest message, still pending. */
  openJob: SeededGig;
  /** Open job of the hirer the worker has not written to yet (and reported). */
  freshJob: SeededGig;
  /** The hirer's job whose escrow invoice is not paid: status pending_payment. */
  unpaidJob: SeededGig;
  /** Claimed by the worker, with both parties' words in the chat. */
  claimedJob: SeededGig;
  completedJob: SeededGig;
  disputedJob: SeededGig;
  /** The worker's service offering. */
  offering: SeededGig;
  portfolioTitle: string;
  chatLines: { hirer: string; worker: string };
  reviewOfWorker: string;
  reviewOfHirer: string;
  disputeReason: string;
  /** What the hirer said in the disputed gig's chat. */
  disputeChat: string;
  suggestion: string;
  reportDetails: string;
}

const DESCRIPTION = "Clear brief, small scope, paid in sats through the escrow. Details in the chat once claimed.";

/** Says one thing in a gig's chat over the socket (SPEC.md §7 Real-time chat), as a member. */
export async function say(baseUrl: string, gigId: string, who: SignedInUser, message: string): Promise<void> {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/ws?gigId=${gigId}`);
  const frames: Record<string, unknown>[] = [];
  let wake: (() => void) | null = null;
  ws.addEventListener("message", (e) => {
    frames.push(JSON.parse(String(e.data)));
    wake?.();
  });
  const next = async (expected: string) => {
    const deadline = Date.now() + 10_000;
    while (frames.length === 0) {
      if (Date.now() > deadline) throw new Error(`chat: no ${expected} within 10 s`);
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, 200);
      });
    }
    const frame = frames.shift()!;
    if (frame.type !== expected) throw new Error(`chat: expected ${expected}, got ${JSON.stringify(frame)}`);
  };
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve);
    ws.addEventListener("error", () => reject(new Error("chat socket failed")));
  });
  try {
    ws.send(JSON.stringify({ type: "auth", sessionToken: who.sessionToken }));
    await next("auth_success");
    ws.send(JSON.stringify({ type: "join_gig", gigId }));
    await next("join_success");
    ws.send(JSON.stringify({ type: "chat_message", gigId, message }));
    await next("new_message");
  } finally {
    ws.close();
  }
}

const as = (m: SignedInUser) => ({ sessionToken: m.sessionToken });

async function post(baseUrl: string, who: SignedInUser, body: Record<string, unknown>) {
  return apiJson<{ gig: GigView; paymentRequest: string | null }>(baseUrl, "POST", "/api/gigs", {
    ...as(who),
    body: { gigType: "job_request", description: DESCRIPTION, category: "Writing", payment: 10_000, timeframe: 7, ...body },
  });
}

export async function seedWorld(baseUrl: string): Promise<World> {
  const [hirer, worker] = await Promise.all([
    member(baseUrl, "Hana Hirer", "I run a small bitcoin bookshop and hire writers and designers."),
    member(baseUrl, "Wes Worker", "Technical writer. Docs, FAQs and landing pages, in English and Spanish."),
  ]);

  const chatLines = { hirer: "Hi Wes, the brief is in the description. Ask me anything here.", worker: "Thanks Hana, starting today." };
  const reviewOfWorker = "Fast, careful and friendly. Would hire again.";
  const reviewOfHirer = "Clear brief and quick approval.";
  const disputeReason = "The pricing section promised in the brief is missing.";
  const disputeChat = "I raised a dispute: the pricing section is missing.";
  const suggestion = "Please add a dark mode for late-night gig hunting.";
  const reportDetails = "Looks like a copy of another listing.";

  // The long chains run side by side.
  const [claimed, completed, disputed] = await Promise.all([
    (async () => {
      const gig = await claimedJob(baseUrl, hirer, worker, uniqueTitle("Proofread bookshop newsletter"));
      await say(baseUrl, gig.id, hirer, chatLines.hirer);
      await say(baseUrl, gig.id, worker, chatLines.worker);
      return gig;
    })(),
    (async () => {
      const gig = await submittedJob(baseUrl, hirer, worker, uniqueTitle("Translate shop About page"));
      await apiJson(baseUrl, "POST", `/api/gigs/${gig.id}/approve`, as(hirer));
      await apiJson(baseUrl, "POST", `/api/gigs/${gig.id}/review`, { ...as(hirer), body: { rating: 5, comment: reviewOfWorker, revieweeId: worker.user.id } });
      await apiJson(baseUrl, "POST", `/api/gigs/${gig.id}/review`, { ...as(worker), body: { rating: 4, comment: reviewOfHirer, revieweeId: hirer.user.id } });
      return gig;
    })(),
    (async () => {
      const gig = await submittedJob(baseUrl, hirer, worker, uniqueTitle("Write pricing page copy"));
      await apiJson(baseUrl, "POST", `/api/gigs/${gig.id}/dispute`, { ...as(hirer), body: { reason: disputeReason } });
      await say(baseUrl, gig.id, hirer, disputeChat);
      return gig;
    })(),
  ]);

  const unpaid = await post(baseUrl, hirer, { title: uniqueTitle("Design a shop logo"), category: "Design", payment: 20_000 });
  const offering = await post(baseUrl, worker, {
    gigType: "service_offering",
    title: uniqueTitle("I write your FAQ page"),
    description: "A clear FAQ page for your shop or project, delivered in three days, two rounds of edits.",
    payment: 15_000,
    timeframe: 3,
  });
  const portfolioTitle = "Bitcoin meetup FAQ";
  await apiJson(baseUrl, "POST", "/api/portfolio", {
    ...as(worker),
    body: {
      title: portfolioTitle,
      description: "The FAQ page of a city meetup: 20 questions, plain words.",
      imageUrl: `${baseUrl}/favicon.svg`,
      projectUrl: "https://example.com/meetup-faq",
      category: "Writing",
    },
  });

  // Newest last, so Browse lists these two first.
  const fresh = await fundedJob(baseUrl, hirer, uniqueTitle("Record a podcast intro"));
  const open = await fundedJob(baseUrl, hirer, uniqueTitle("Write a product FAQ"));
  await apiJson(baseUrl, "POST", `/api/gigs/${open.id}/pre-claim-messages`, { ...as(worker), body: { message: "I wrote FAQs for three shops; samples in my portfolio." } });
  await apiJson(baseUrl, "POST", "/api/gig-reports", { ...as(worker), body: { gigId: fresh.id, reason: "spam", details: reportDetails } });
  await apiJson(baseUrl, "POST", "/api/suggestions", { ...as(worker), body: { suggestion } });

  // The states the screens rely on.
  const expect = async (g: { id: string }, status: string) => {
    const now = await getGig(baseUrl, hirer, g.id);
    if (now.status !== status) throw new Error(`seed: gig ${g.id} is ${now.status}, expected ${status}`);
  };
  await Promise.all([
    expect(open, "open"),
    expect(fresh, "open"),
    expect(unpaid.gig, "pending_payment"),
    expect(claimed, "claimed"),
    expect(completed, "completed"),
    expect(disputed, "disputed"),
  ]);

  const pick = (g: { id: string; title: string }): SeededGig => ({ id: g.id, title: g.title });
  return {
    hirer,
    worker,
    openJob: pick(open),
    freshJob: pick(fresh),
    unpaidJob: pick(unpaid.gig),
    claimedJob: pick(claimed),
    completedJob: pick(completed),
    disputedJob: pick(disputed),
    offering: pick(offering.gig),
    portfolioTitle,
    chatLines,
    reviewOfWorker,
    reviewOfHirer,
    disputeReason,
    disputeChat,
    suggestion,
    reportDetails,
  };
}
