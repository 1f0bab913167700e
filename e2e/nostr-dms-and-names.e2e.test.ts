// Story (issue 27, docs/decisions/026 and the NIP-05 names of "Gigstr on Nostr"), on a 360 px phone:
// 1. A member opens Settings from the account menu, turns on "Send my notifications as Nostr DMs" and saves. When
//    another member then sends interest in their gig and the cron runs, a Nostr client subscribed on the app's
//    local relay to kind 1059 for the member's key receives a gift wrap that the member's secret key (and no
//    other) unwraps into a kind 14 from the platform's key, with the notification's title, its message and the
//    gig's link. A member who never turned it on gets nothing there for the same kind of notification.
// 2. A member claims a Gigstr alias on their profile page; the page's own fetch of
//    /.well-known/nostr.json?name=<alias> answers their hex key, with `Access-Control-Allow-Origin: *`.
import { unwrapEvent } from "nostr-tools/nip17";
import { generateSecretKey, type Event } from "nostr-tools/pure";
import { Relay, useWebSocketImplementation } from "nostr-tools/relay";
import { WebSocket } from "ws";
import { describe, expect, inject, it } from "vitest";
import { horizontalOverflow } from "./support/axe";
import { apiJson, type SignedInUser } from "./support/api";
import { useBrowser } from "./support/browser";
import {
  dialog,
  eventually,
  expectToast,
  fundedJob,
  member,
  shotsOnFailure,
  storyShot,
  uniqueTitle,
  waitForNotification,
  type GigView,
  type NotificationView,
} from "./support/gigs";

useWebSocketImplementation(WebSocket);

const baseUrl = inject("baseUrl");
const openPage = useBrowser();

const NOSTR_DMS_LABEL = "Send my notifications as Nostr DMs";

interface NostrConfig {
  nostr: { platformPubkey: string | null; relays: string[] };
}

/** Runs the Worker's cron once (it sends the outbox to the relays), as `npm start` does every minute. */
async function runCron(): Promise<void> {
  const res = await fetch(`${baseUrl}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`, { signal: AbortSignal.timeout(30_000) });
  await res.arrayBuffer();
  expect(res.ok, `cron run answered ${res.status}`).toBe(true);
}

const addressedTo = (pubkey: string) => (e: Event) => e.kind === 1059 && e.tags.some((t) => t[0] === "p" && t[1] === pubkey);

/** The gift wraps for `pubkey` a relay holds now: one REQ, answered up to its end of stored events. */
async function storedWrapsFor(relayUrl: string, pubkey: string): Promise<Event[]> {
  const relay = await Relay.connect(relayUrl);
  try {
    return await new Promise<Event[]>((resolve) => {
      const found: Event[] = [];
      const sub = relay.subscribe([{ kinds: [1059], "#p": [pubkey] }], {
        onevent: (e) => void found.push(e),
        oneose: () => {
          sub.close();
          resolve(found);
        },
      });
    });
  } finally {
    relay.close();
  }
}

/** `worker` sends interest in `gig`, which notifies its hirer; answers that notification. */
async function sendInterest(worker: SignedInUser, hirer: SignedInUser, gig: GigView): Promise<NotificationView> {
  await apiJson(baseUrl, "POST", `/api/gigs/${gig.id}/pre-claim-messages`, { sessionToken: worker.sessionToken, body: { message: "I can do this today." } });
  return waitForNotification(baseUrl, hirer, (n) => n.type === "interest" && n.gigId === gig.id);
}

const me = (who: SignedInUser) => apiJson<{ nostrDmNotifications: boolean; gigstrAlias: string | null }>(baseUrl, "GET", "/api/user/me", { sessionToken: who.sessionToken });

describe("Notifications as Nostr DMs, and NIP-05 names (360 px)", () => {
  it("a member who turns on Nostr DMs in Settings gets each notification as a NIP-17 message only their key opens; one who did not gets none", async () => {
    const config = await apiJson<NostrConfig>(baseUrl, "GET", "/api/config");
    const platformPubkey = config.nostr.platformPubkey!;
    expect(platformPubkey).toMatch(/^[0-9a-f]{64}$/);
    const relayUrl = config.nostr.relays[0]!;
    expect(relayUrl).toMatch(/^wss?:\/\//);

    const hirer = await member(baseUrl, "Dora Dms");
    const quiet = await member(baseUrl, "Quinn Quiet");
    const worker = await member(baseUrl, "Wim Worker");
    const gig = await fundedJob(baseUrl, hirer, uniqueTitle("Index a podcast archive"));
    const quietGig = await fundedJob(baseUrl, quiet, uniqueTitle("Tag a photo library"));

    // The member's Nostr client, on the relay the app names, listening for gift wraps to either member.
    const client = await Relay.connect(relayUrl);
    const received: Event[] = [];
    client.subscribe([{ kinds: [1059], "#p": [hirer.pubkey, quiet.pubkey] }], { onevent: (e) => void received.push(e) });

    try {
      // --- On the phone: account menu -> Settings -> the switch, off at first; on; Save.
      const { page, pageErrors } = await openPage(baseUrl, { viewport: "mobile", sessionToken: hirer.sessionToken });
      shotsOnFailure("nostr-dms-mobile", { member: page });
      await page.goto("/");
      await page.getByRole("banner").getByRole("button", { name: "Account menu for Dora Dms" }).click();
      await page.getByRole("menuitem", { name: "Settings" }).click();
      const settings = dialog(page, "Profile and Settings");
      await settings.waitFor();
      const dms = settings.getByRole("checkbox", { name: NOSTR_DMS_LABEL });
      await dms.scrollIntoViewIfNeeded();
      expect(await dms.isChecked(), "off by default").toBe(false);
      await settings.getByText("Each notification also arrives as a private Nostr message from Gigstr, readable only by you.").waitFor();
      await dms.check();
      expect(await dms.isChecked()).toBe(true);
      expect(await horizontalOverflow(page, settings)).toBeNull();
      await storyShot(page, "nostr-dms-mobile-01-settings-switch-on");
      await settings.getByRole("button", { name: "Save" }).click();
      await expectToast(page, "Settings Updated");
      await settings.waitFor({ state: "detached" });
      expect((await me(hirer)).nostrDmNotifications, "saved").toBe(true);
      expect((await me(quiet)).nostrDmNotifications, "off for a member who never turned it on").toBe(false);

      // Kept: Settings opened again shows it on.
      await page.getByRole("banner").getByRole("button", { name: "Account menu for Dora Dms" }).click();
      await page.getByRole("menuitem", { name: "Settings" }).click();
      await settings.waitFor();
      expect(await settings.getByRole("checkbox", { name: NOSTR_DMS_LABEL }).isChecked()).toBe(true);
      await settings.getByRole("button", { name: "Cancel" }).click();
      await settings.waitFor({ state: "detached" });
      expect(pageErrors).toEqual([]);

      // --- Something notifies both members: another member is interested in each one's gig.
      const quietNotice = await sendInterest(worker, quiet, quietGig);
      const notice = await sendInterest(worker, hirer, gig);
      const link = `${baseUrl}/gig/${gig.id}`;

      // --- The cron sends the outbox; the client receives the member's gift wrap.
      const isTheNotice = (e: Event) => {
        try {
          return unwrapEvent(e, hirer.secretKey).content.includes(link);
        } catch {
          return false;
        }
      };
      let wrap: Event | undefined;
      await runCron();
      await eventually(
        "the member's gift wrap on the local relay",
        async () => {
          wrap = received.filter(addressedTo(hirer.pubkey)).find(isTheNotice);
          if (!wrap) await runCron();
          return wrap !== undefined;
        },
        60_000,
      );
      const found = wrap!;
      expect(found.kind).toBe(1059);
      expect(found.pubkey, "a one-time key signs the wrap, not the platform").not.toBe(platformPubkey);
      expect(found.tags).toContainEqual(["p", hirer.pubkey]);

      // The member's key opens it: a kind 14 from the platform, to the member, with the notification and the gig's link.
      const rumor = unwrapEvent(found, hirer.secretKey);
      expect(rumor.kind).toBe(14);
      expect(rumor.pubkey).toBe(platformPubkey);
      expect(rumor.tags).toContainEqual(["p", hirer.pubkey]);
      expect(rumor.content).toContain(notice.title);
      expect(rumor.content).toContain(notice.message);
      expect(rumor.content).toContain(gig.title);
      expect(rumor.content).toContain(link);
      // Every wrap to the member is a message from the platform (no other sender writes to this new key).
      for (const e of received.filter(addressedTo(hirer.pubkey))) expect(unwrapEvent(e, hirer.secretKey).pubkey).toBe(platformPubkey);

      // Nobody else's key opens it: a random key, the other members'.
      expect(() => unwrapEvent(found, generateSecretKey())).toThrow();
      expect(() => unwrapEvent(found, worker.secretKey)).toThrow();
      expect(() => unwrapEvent(found, quiet.secretKey)).toThrow();

      // --- The member who did not turn it on: their notification is in the app, and nothing is on the relay for
      // them, neither pushed to the live subscription nor stored, after one more full cron run.
      expect(quietNotice.message).toContain(quietGig.title);
      await runCron();
      expect(await storedWrapsFor(relayUrl, quiet.pubkey)).toEqual([]);
      expect(received.filter(addressedTo(quiet.pubkey))).toEqual([]);
      // While the member with the setting has theirs stored there too.
      expect((await storedWrapsFor(relayUrl, hirer.pubkey)).map((e) => e.id)).toContain(found.id);
    } finally {
      client.close();
    }
  });

  it("a member's claimed alias is their NIP-05 name: nostr.json answers their hex key, with Access-Control-Allow-Origin: *", async () => {
    const m = await member(baseUrl, "Nina Nip");
    const alias = `nina${Date.now().toString(36)}`;
    const { page, pageErrors } = await openPage(baseUrl, { viewport: "mobile", sessionToken: m.sessionToken });
    shotsOnFailure("nip05-mobile", { member: page });

    // Before the alias: no name.
    await page.goto("/profile");
    const before = await page.evaluate(async (name) => (await fetch(`/.well-known/nostr.json?name=${name}`)).json(), alias);
    expect(before).toEqual({ names: {} });

    // --- The profile page's alias card: type it, wait for "available", claim it.
    await page.getByRole("heading", { name: "Gigstr Lightning Alias" }).waitFor();
    const input = page.getByLabel("Choose your alias");
    await input.scrollIntoViewIfNeeded();
    await input.fill(alias);
    await page.getByText(`${alias}@`).filter({ hasText: "is available" }).waitFor();
    await page.getByRole("button", { name: "Claim Alias" }).click();
    await expectToast(page, "Settings Updated");
    await page.getByText("Permanently configured").waitFor();
    expect((await me(m)).gigstrAlias).toBe(alias);
    await storyShot(page, "nip05-mobile-01-alias-claimed");

    // --- The NIP-05 answer, read from the page: the alias names the member's hex key, with CORS `*` (as NIP-05 asks).
    const answer = await page.evaluate(async (name) => {
      const res = await fetch(`/.well-known/nostr.json?name=${encodeURIComponent(name)}`);
      return { status: res.status, allowOrigin: res.headers.get("Access-Control-Allow-Origin"), contentType: res.headers.get("Content-Type"), body: await res.json() };
    }, alias);
    expect(answer).toMatchObject({ status: 200, allowOrigin: "*", body: { names: { [alias]: m.pubkey } } });
    expect(answer.contentType).toMatch(/application\/json/);
    expect(Object.keys(answer.body.names)).toEqual([alias]);
    expect(m.pubkey).toMatch(/^[0-9a-f]{64}$/);

    // NIP-05 names are case-insensitive: the same key for the name typed in capitals.
    const upper = await page.evaluate(async (name) => (await fetch(`/.well-known/nostr.json?name=${name.toUpperCase()}`)).json(), alias);
    expect(upper).toEqual({ names: { [alias]: m.pubkey } });
    expect(pageErrors).toEqual([]);
  });
});
