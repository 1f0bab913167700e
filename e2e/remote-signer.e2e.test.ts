// Sign-in with a remote signer (NIP-46, decision 027) in a real browser at the phone size: a real signer
// (applesauce-signers' NostrConnectProvider, scripts/local-nostr/bunker.ts) runs in this test process on the
// app's own local relay (GET /api/config names it) and holds the member's key; the page connects to it through a
// pasted bunker:// link, or shows a nostrconnect:// code that the signer opens, as a signer app would.
import type { Page } from "playwright-core";
import { nip19 } from "nostr-tools";
import { afterEach, describe, expect, inject, it } from "vitest";
import { startBunker, type LocalBunker } from "../scripts/local-nostr/bunker";
import { apiJson } from "./support/api";
import { useBrowser, sessionTokenOf } from "./support/browser";
import { shotsOnFailure, storyShot } from "./support/gigs";

const baseUrl = inject("baseUrl");
const openPage = useBrowser();
const bunkers: LocalBunker[] = [];

afterEach(async () => {
  await Promise.all(bunkers.splice(0).map((b) => b.close()));
});

/** A signer holding a new member's key, listening on the relay the app names. */
async function signer(): Promise<LocalBunker> {
  const config = await apiJson<{ nostr: { relays: string[] } }>(baseUrl, "GET", "/api/config");
  expect(config.nostr.relays[0]).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
  const started = await startBunker({ relays: config.nostr.relays });
  bunkers.push(started);
  return started;
}

async function openRemoteSignerTab(page: Page) {
  await page.goto("/");
  await page.getByRole("button", { name: "Login with Nostr" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("tab", { name: "Remote Signer" }).click();
  await dialog.getByLabel("Bunker URL").waitFor();
  return dialog;
}

/** Signed in as the signer's member: the top bar shows them, and the server knows the session as theirs. */
async function expectSignedInAs(page: Page, remote: LocalBunker) {
  const npub = nip19.npubEncode(remote.userPubkey);
  await page.getByRole("banner").getByRole("button", { name: /npub1/ }).waitFor();
  const token = await sessionTokenOf(page);
  expect(token).toBeTruthy();
  const me = await apiJson<{ nostrPubkey: string; username: string }>(baseUrl, "GET", "/api/user/me", { sessionToken: token! });
  expect(me).toMatchObject({ nostrPubkey: remote.userPubkey, username: npub });
}

describe("remote signer at the phone size", () => {
  it("logs in with a pasted bunker:// link, and keeps the signer for the tab across a reload", async () => {
    const remote = await signer();
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile" });
    shotsOnFailure("remote-signer-bunker", { page });
    const dialog = await openRemoteSignerTab(page);
    await storyShot(page, "remote-signer-mobile-1-tab");

    // A wrong paste is answered at once.
    await dialog.getByLabel("Bunker URL").fill("npub1notabunkerlink");
    await dialog.getByRole("button", { name: "Connect to Signer" }).click();
    await dialog.getByText("That is not a bunker:// link.", { exact: false }).waitFor();
    await storyShot(page, "remote-signer-mobile-2-bad-link");

    await dialog.getByLabel("Bunker URL").fill(remote.bunkerUrl);
    await dialog.getByRole("button", { name: "Connect to Signer" }).click();
    await dialog.waitFor({ state: "detached" });
    await expectSignedInAs(page, remote);
    expect(remote.signed.map((e) => e.kind)).toEqual([22242]);

    // The signer stays this tab's: its session is kept for a reload (decision 027), and the member stays signed in.
    await page.reload();
    await expectSignedInAs(page, remote);
    await storyShot(page, "remote-signer-mobile-3-signed-in");
    const kept = await page.evaluate(() => JSON.parse(sessionStorage.getItem("gigstr.remoteSigner") ?? "null"));
    expect(kept).toMatchObject({ userPubkey: remote.userPubkey, relays: [expect.stringMatching(/^ws:\/\/127\.0\.0\.1:/)] });

    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });

  it("logs in when the signer app opens the nostrconnect:// code the page shows", async () => {
    const remote = await signer();
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile" });
    shotsOnFailure("remote-signer-qr", { page });
    const dialog = await openRemoteSignerTab(page);

    await dialog.getByRole("button", { name: "Connect with a QR Code" }).click();
    await dialog.getByRole("img", { name: "QR code to connect your signer app" }).waitFor();
    await dialog.getByRole("status").filter({ hasText: "Waiting for your signer app to connect" }).waitFor();
    await storyShot(page, "remote-signer-mobile-4-qr");
    const uri = await dialog.getByRole("link", { name: "Open Signer App" }).getAttribute("href");
    expect(uri).toMatch(/^nostrconnect:\/\/[0-9a-f]{64}\?/);

    await remote.connectTo(uri!);
    await dialog.waitFor({ state: "detached" });
    await expectSignedInAs(page, remote);

    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });

  it("waits for a signer that does not answer until Cancel, and says so when the person declines", async () => {
    const remote = await signer();
    remote.refuseSigning(true);
    const { page, context, pageErrors } = await openPage(baseUrl, { viewport: "mobile" });
    shotsOnFailure("remote-signer-refused", { page });
    const dialog = await openRemoteSignerTab(page);

    // A link to a signer that is not there (its key is nobody's on this relay): the page waits, and Cancel stops it.
    const relay = new URL(remote.bunkerUrl).searchParams.get("relay")!;
    await dialog.getByLabel("Bunker URL").fill(`bunker://${"ab".repeat(32)}?relay=${encodeURIComponent(relay)}`);
    await dialog.getByRole("button", { name: "Connect to Signer" }).click();
    await dialog.getByRole("status").filter({ hasText: "Connecting to your signer…" }).waitFor();
    await storyShot(page, "remote-signer-mobile-5-waiting");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.getByLabel("Bunker URL").waitFor();
    expect(await dialog.getByRole("alert").count()).toBe(0);

    await dialog.getByLabel("Bunker URL").fill(remote.bunkerUrl);
    await dialog.getByRole("button", { name: "Connect to Signer" }).click();
    await dialog.getByRole("alert").filter({ hasText: "Your signer refused: Sign event denied." }).waitFor();
    await storyShot(page, "remote-signer-mobile-6-refused");
    expect(remote.refused.map((t) => t.kind)).toEqual([22242]);
    expect(await sessionTokenOf(page)).toBeNull();

    expect(pageErrors.map(String)).toEqual([]);
    await context.close();
  });
});
