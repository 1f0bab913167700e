// @vitest-environment node
// The remote-signer module (nostr-tools' BunkerSigner, bounded in time) against a real NIP-46 signer on a real
// relay: applesauce-signers' NostrConnectProvider (scripts/local-nostr/bunker.ts, an independent implementation
// of the signer side) and @nostr-relay/core (scripts/local-nostr/relay.ts), both on 127.0.0.1. In Node, not jsdom:
// the relay is a Node server. Sockets come from the `ws` package, as they would from the browser (Node's own
// WebSocket re-enters its error handler when nostr-tools closes a socket that failed to connect).
import { generateSecretKey, getPublicKey, verifyEvent } from "nostr-tools/pure";
import { useWebSocketImplementation } from "nostr-tools/pool";
import { bytesToHex } from "nostr-tools/utils";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket as NodeWebSocket } from "ws";
import { startBunker, type LocalBunker } from "../../../../scripts/local-nostr/bunker";
import { startRelay, type LocalRelay } from "../../../../scripts/local-nostr/relay";
import { loginEventTemplate } from "../../lib/nostr";
import { connectBunker, inviteNostrConnect, restoreRemoteSigner, type RemoteSigner } from "./remote-signer";
import { parseBunkerUrl, RemoteSignerError } from "./remote-signer-url";

let relay: LocalRelay;
const bunkers: LocalBunker[] = [];
const signers: RemoteSigner[] = [];

beforeAll(async () => {
  useWebSocketImplementation(NodeWebSocket);
  relay = await startRelay();
});

afterEach(async () => {
  for (const signer of signers.splice(0)) signer.close();
  await Promise.all(bunkers.splice(0).map((b) => b.close()));
});

afterAll(async () => {
  await relay?.close();
});

async function bunker(userKey?: Uint8Array): Promise<LocalBunker> {
  const started = await startBunker({ relays: [relay.url], userKey });
  bunkers.push(started);
  return started;
}

function kept<T extends RemoteSigner>(signer: T): T {
  signers.push(signer);
  return signer;
}

const template = () => loginEventTemplate("ab".repeat(32), "https://gigstr.test");

/** What a promise rejected with (fails the test when it resolved). */
async function rejection(promise: Promise<unknown>): Promise<RemoteSignerError> {
  const outcome = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(RemoteSignerError);
  return outcome as RemoteSignerError;
}

describe("a bunker:// link", () => {
  it("connects with the link's secret, learns the member's key (not the signer's own) and gets a login signed", async () => {
    const userKey = generateSecretKey();
    const remote = await bunker(userKey);
    const signer = kept(await connectBunker(parseBunkerUrl(remote.bunkerUrl)));

    expect(await signer.getPublicKey()).toBe(getPublicKey(userKey));
    expect(signer.session.remotePubkey).toBe(parseBunkerUrl(remote.bunkerUrl).pubkey);
    expect(signer.session.remotePubkey).not.toBe(getPublicKey(userKey));
    const signed = await signer.signEvent(template());
    expect(verifyEvent(signed)).toBe(true);
    expect(signed).toMatchObject({ kind: 22242, pubkey: getPublicKey(userKey), tags: [["challenge", "ab".repeat(32)], ["relay", "https://gigstr.test"]] });
    expect(remote.signed.map((e) => e.id)).toEqual([signed.id]);
    expect(remote.clients).toEqual([getPublicKey(Uint8Array.from(Buffer.from(signer.session.clientSecretKey, "hex")))]);
  });

  it("says the signer refused when the link's secret is wrong, and signs nothing", async () => {
    const remote = await bunker();
    const wrong = { ...parseBunkerUrl(remote.bunkerUrl), secret: "not-the-secret" };
    const err = await rejection(connectBunker(wrong, { waitMs: 5000 }));
    expect(err.problem).toBe("refused");
    expect(err.message).toBe("Your signer refused: Invalid connection secret.");
    expect(remote.clients).toEqual([]);
  });

  it("says the signer refused when the person declines to sign", async () => {
    const remote = await bunker();
    const signer = kept(await connectBunker(parseBunkerUrl(remote.bunkerUrl)));
    remote.refuseSigning(true);
    const err = await rejection(signer.signEvent(template()));
    expect(err.problem).toBe("refused");
    expect(err.message).toBe("Your signer refused: Sign event denied.");
    expect(remote.refused).toHaveLength(1);
    expect(remote.signed).toEqual([]);
  });

  it("gives up after the wait when no signer answers on the relay", async () => {
    const nobody = `bunker://${getPublicKey(generateSecretKey())}?relay=${encodeURIComponent(relay.url)}&secret=x`;
    const started = Date.now();
    const err = await rejection(connectBunker(parseBunkerUrl(nobody), { waitMs: 1500 }));
    expect(err.problem).toBe("timeout");
    expect(err.message).toBe("Your signer did not answer within 2 seconds. Check that it is running and online, then try again.");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("stops waiting at once on Cancel", async () => {
    const nobody = `bunker://${getPublicKey(generateSecretKey())}?relay=${encodeURIComponent(relay.url)}`;
    const cancel = new AbortController();
    const pending = connectBunker(parseBunkerUrl(nobody), { signal: cancel.signal });
    setTimeout(() => cancel.abort(), 200);
    const err = await rejection(pending);
    expect(err.problem).toBe("cancelled");
  });

  it("says the relay could not be reached when nothing listens there", async () => {
    const closed = `bunker://${getPublicKey(generateSecretKey())}?relay=ws%3A%2F%2F127.0.0.1%3A1`;
    const err = await rejection(connectBunker(parseBunkerUrl(closed), { waitMs: 10_000 }));
    expect(err.problem).toBe("unreachable");
    expect(err.message).toBe("Could not reach your signer's relay (ws://127.0.0.1:1). Check the link and your connection.");
  });
});

describe("a nostrconnect:// code", () => {
  it("waits for a signer app to open it, then signs as the member", async () => {
    const userKey = generateSecretKey();
    const remote = await bunker(userKey);
    const invite = await inviteNostrConnect([relay.url]);
    const uri = new URL(invite.uri);
    expect(uri.protocol).toBe("nostrconnect:");
    expect(uri.searchParams.getAll("relay")).toEqual([relay.url]);
    expect(uri.searchParams.get("perms")).toBe("sign_event:22242,sign_event:0,sign_event:1985,get_public_key");
    expect(uri.searchParams.get("name")).toBe("Gigstr");
    expect(uri.searchParams.get("secret")).toMatch(/^[0-9a-f]{32}$/);

    await remote.connectTo(invite.uri);
    const signer = kept(await invite.connected);
    expect(await signer.getPublicKey()).toBe(getPublicKey(userKey));
    const signed = await signer.signEvent(template());
    expect(verifyEvent(signed) && signed.pubkey).toBe(getPublicKey(userKey));
  });

  it("gives up when no signer app connects in time, and on Cancel", async () => {
    const late = await inviteNostrConnect([relay.url], { waitMs: 800 });
    expect((await rejection(late.connected)).message).toBe("No signer app connected within 1 second. Show a new code and try again.");

    const cancel = new AbortController();
    const cancelled = await inviteNostrConnect([relay.url], { signal: cancel.signal });
    cancel.abort();
    expect((await rejection(cancelled.connected)).problem).toBe("cancelled");
  });
});

describe("after a reload", () => {
  it("signs again from the kept session, without a new connect", async () => {
    const userKey = generateSecretKey();
    const remote = await bunker(userKey);
    const first = kept(await connectBunker(parseBunkerUrl(remote.bunkerUrl)));
    first.close();

    const again = kept(restoreRemoteSigner(JSON.parse(JSON.stringify(first.session))));
    const signed = await again.signEvent({ kind: 0, created_at: Math.floor(Date.now() / 1000), tags: [], content: '{"name":"Ada"}' });
    expect(verifyEvent(signed) && signed.pubkey).toBe(getPublicKey(userKey));
    expect(remote.clients).toHaveLength(1);
  });

  it("is refused by a signer that does not know this tab's key", async () => {
    const remote = await bunker();
    const signer = kept(await connectBunker(parseBunkerUrl(remote.bunkerUrl)));
    const stranger = kept(restoreRemoteSigner({ ...signer.session, clientSecretKey: bytesToHex(generateSecretKey()) }, { waitMs: 1500 }));
    // The signer ignores requests from clients it never connected: the tab hears nothing, and says so.
    expect((await rejection(stranger.signEvent(template()))).problem).toBe("timeout");
  });
});
