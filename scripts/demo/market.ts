// A living market for `npm run demo`: members, and gigs in every state of their life (open, hired, claimed,
// in progress, delivered, completed with reviews, disputed, cancelled), made through the API exactly as
// people would make them, paid with the dev wallet. Runs against any way of calling the API (`Caller`): a
// started app over HTTP (scripts/start.mjs --demo), or the Worker itself in a test (worker/demo-market.test.ts).
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { nip19 } from "nostr-tools";

export interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the API's JSON, read field by field below
}

/** One API call: method, path, the member's session token, a JSON body, and who calls (CF-Connecting-IP). */
export type Caller = (method: string, path: string, opts: { token?: string; json?: unknown; address: string }) => Promise<Answer>;

export interface DemoMember {
  name: string;
  nsec: string;
  npub: string;
  token: string;
  id: string;
  address: string;
}

export interface DemoMarket {
  hirer: DemoMember;
  worker: DemoMember;
  members: DemoMember[];
  gigs: { id: string; title: string; status: string }[];
}

async function ok(call: Promise<Answer>, step: string): Promise<any> {
  const answer = await call;
  if (answer.status < 200 || answer.status >= 300) throw new Error(`demo: ${step} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function member(call: Caller, origin: string, n: number, name: string, bio: string): Promise<DemoMember> {
  const address = `203.0.113.${n}`;
  const secret = generateSecretKey();
  const { challenge, challengeId } = await ok(call("POST", "/api/auth/nostr/challenge", { address }), `${name}: challenge`);
  const event = finalizeEvent({ kind: 22242, created_at: Math.floor(Date.now() / 1000), tags: [["challenge", challenge], ["relay", origin]], content: "" }, secret);
  const { sessionToken, user } = await ok(call("POST", "/api/auth/nostr/verify", { address, json: { event, challengeId } }), `${name}: sign-in`);
  const handle = name.toLowerCase().replace(/[^a-z0-9]+/g, ".");
  await ok(call("PATCH", "/api/user/me", { address, token: sessionToken, json: { displayName: name, bio, lightningAddress: `${handle}@wallet.test` } }), `${name}: profile`);
  return { name, nsec: nip19.nsecEncode(secret), npub: nip19.npubEncode(getPublicKey(secret)), token: sessionToken, id: user.id, address };
}

interface GigDraft {
  gigType: "job_request" | "service_offering";
  title: string;
  description: string;
  category: string;
  payment: number;
  timeframe: number;
}

export async function seedMarket(call: Caller, origin: string): Promise<DemoMarket> {
  const as = (m: DemoMember) => ({ token: m.token, address: m.address });
  const hana = await member(call, origin, 1, "Hana Hirer", "I run a small coffee roastery and hire for design, words and code. Paid in sats, always on time.");
  const walt = await member(call, origin, 2, "Walt Worker", "Logo and brand designer. Vector files, fast turnaround, happy to revise.");
  const ada = await member(call, origin, 3, "Ada Illustrates", "Hand-drawn illustrations and stickers for bitcoin meetups.");
  const bakery = await member(call, origin, 4, "Satoshi's Bakery", "A neighbourhood bakery that takes Lightning. We hire locals for small jobs.");
  const nako = await member(call, origin, 5, "Nako Translates", "Japanese and English translations, technical and friendly.");
  const lena = await member(call, origin, 6, "Lena Writes", "Copywriter: product pages, newsletters, and the odd poem about sats.");

  const gigs: DemoMarket["gigs"] = [];
  const post = async (poster: DemoMember, draft: GigDraft) => {
    const posted = await ok(call("POST", "/api/gigs", { ...as(poster), json: draft }), `post "${draft.title}"`);
    if (posted.paymentRequest) await ok(call("POST", "/api/dev/invoices/pay", { address: poster.address, json: { paymentRequest: posted.paymentRequest } }), `fund "${draft.title}"`);
    return posted.gig.id as string;
  };
  const interest = async (gigId: string, from: DemoMember, owner: DemoMember, message: string, enable = true) => {
    const sent = await ok(call("POST", `/api/gigs/${gigId}/pre-claim-messages`, { ...as(from), json: { message } }), "interest");
    if (!enable) return;
    for (const step of ["approve", "enable-claim"]) await ok(call("PATCH", `/api/pre-claim-messages/${sent.id}/${step}`, as(owner)), `interest ${step}`);
  };
  const claim = async (gigId: string, by: DemoMember) => {
    const claimed = await ok(call("POST", `/api/gigs/${gigId}/claim`, as(by)), "claim");
    if (claimed.paymentRequest) await ok(call("POST", "/api/dev/invoices/pay", { address: by.address, json: { paymentRequest: claimed.paymentRequest } }), "fund the hire");
  };
  const act = (gigId: string, by: DemoMember, action: string, json?: unknown) => ok(call("POST", `/api/gigs/${gigId}/${action}`, { ...as(by), json }), action);
  /** A job taken by `by` after an approved interest message, up to `until` (delivered with `submission`). */
  const take = async (gigId: string, owner: DemoMember, by: DemoMember, message: string, until: "claimed" | "in_progress" | "work_submitted", submission = "") => {
    await interest(gigId, by, owner, message);
    await claim(gigId, by);
    if (until === "claimed") return;
    await act(gigId, by, "start-work");
    if (until === "work_submitted") await act(gigId, by, "submit", { workSubmission: submission });
  };
  const job = (title: string, description: string, category: string, payment: number, timeframe = 7): GigDraft => ({ gigType: "job_request", title, description, category, payment, timeframe });
  const offer = (title: string, description: string, category: string, payment: number, timeframe = 5): GigDraft => ({ gigType: "service_offering", title, description, category, payment, timeframe });

  // Open job requests, funded, waiting for workers (one with an interest message pending).
  const roastLabels = await post(hana, job("Label design for three coffee roasts", "Three matching bag labels (light, medium, dark roast) for our new beans. Print-ready PDF and SVG.", "Design", 60_000));
  await interest(roastLabels, lena, hana, "I can write the roast descriptions too, if that helps.", false);
  await post(bakery, job("Menu board for the bakery window", "A chalkboard-style menu with prices in sats and euros, A2, ready to print.", "Design", 25_000, 5));
  await post(lena, job("Proofread a 2,000-word newsletter", "Friendly proofreading of our monthly bitcoin meetup newsletter, English.", "Writing", 8_000, 2));
  // Open service offerings.
  await post(walt, offer("A logo for your project, two revisions", "A simple, memorable logo in SVG and PNG, with two rounds of changes.", "Design", 150_000));
  await post(ada, offer("Sticker illustration for your meetup", "One hand-drawn sticker design, print-ready, in your colours.", "Design", 40_000, 4));
  await post(nako, offer("Japanese ↔ English translation, up to 1,000 words", "Careful translation of a page, a post or app strings.", "Writing", 30_000, 3));

  // Claimed, in progress, delivered.
  const website = await post(bakery, job("Update the bakery's opening hours page", "Change the hours on our small static site and add a Lightning tip button.", "Development", 20_000, 3));
  await take(website, bakery, walt, "I have done a few static sites; happy to take this one.", "claimed");
  const poster = await post(hana, job("Poster for our coffee tasting night", "An A3 poster for a tasting evening, with the date, time and a QR code.", "Design", 35_000, 4));
  await take(poster, hana, ada, "I'd love to draw this, with a little steaming cup.", "in_progress");
  const slogan = await post(hana, job("A slogan for the new espresso blend", "Five short slogan ideas for 'Night Owl', our new espresso blend.", "Writing", 12_000, 2));
  await take(slogan, hana, walt, "Words are not only for writers; let me try.", "work_submitted", "1. Night Owl: wide awake, fairly brewed.\n2. For the late shift of the timechain.\n3. Stay up, stack sats.\n4. Dark roast, bright mind.\n5. The owl never sleeps. Neither does bitcoin.");

  // Completed, with reviews both ways.
  const newsletter = await post(lena, job("Header image for the newsletter", "A wide header image for our newsletter, in orange and charcoal.", "Design", 18_000, 3));
  await take(newsletter, lena, walt, "Orange and charcoal, my favourite pair.", "work_submitted", "Header delivered: 1600×400 PNG and the SVG source, in the chat.");
  await act(newsletter, lena, "approve");
  await act(newsletter, lena, "review", { rating: 5, comment: "Fast, friendly and exactly the colours I asked for.", revieweeId: walt.id });
  await act(newsletter, walt, "review", { rating: 5, comment: "Clear brief and paid at once.", revieweeId: lena.id });

  // A hired service offering, at work.
  const hired = await post(nako, offer("Translate a product page into Japanese", "One product page, up to 600 words, with a second read by a native speaker.", "Writing", 22_000, 3));
  await interest(hired, hana, nako, "Our roastery's page, for visitors from Tokyo.");
  await claim(hired, hana);
  await act(hired, nako, "start-work");

  // A dispute for the admin, and a cancelled job refunded.
  const disputed = await post(bakery, job("Photos of twelve pastries", "Twelve bright photos of our pastries for the online menu, square format.", "Other", 45_000, 5));
  await take(disputed, bakery, nako, "I have a light box and a good lens.", "work_submitted", "Twelve photos uploaded to the shared folder.");
  await act(disputed, bakery, "dispute", { reason: "Only eight photos arrived, and three of them are blurry." });
  const cancelled = await post(hana, job("Transcribe a 10-minute interview", "Transcribe an interview about our coffee farm visit.", "Writing", 9_000, 2));
  await act(cancelled, hana, "cancel");

  for (const m of [hana, walt, ada, bakery, nako, lena]) {
    const mine = await ok(call("GET", "/api/gigs?participant=me&limit=100", as(m)), "list");
    for (const g of mine) if (!gigs.some((x) => x.id === g.id)) gigs.push({ id: g.id, title: g.title, status: g.status });
  }
  return { hirer: hana, worker: walt, members: [hana, walt, ada, bakery, nako, lena], gigs };
}
