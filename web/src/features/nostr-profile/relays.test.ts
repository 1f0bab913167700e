// @vitest-environment node
// The relay module against real relays: @nostr-relay/core relays started here on 127.0.0.1
// (scripts/local-nostr/relay.ts). In Node, not jsdom: the relay is a Node server, and the module under test
// needs only a WebSocket, which it is given.
// Sockets come from the `ws` package, as they would from the browser.
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket as NodeWebSocket, WebSocketServer } from "ws";
import { startRelay, type LocalRelay } from "../../../../scripts/local-nostr/relay";

type TestRelay = Pick<LocalRelay, "url" | "events" | "close">;
import { fetchLatestProfileEvent, publishEvent, type RelayOptions } from "./relays";

const started: TestRelay[] = [];

async function relays(count: number): Promise<TestRelay[]> {
  const list = await Promise.all(Array.from({ length: count }, () => startRelay()));
  started.push(...list);
  return list;
}

/** A relay that accepts connections and never says a word. */
async function silentRelay(): Promise<string> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  const url = `ws://127.0.0.1:${port}`;
  started.push({
    url,
    events: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  });
  return url;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((relay) => relay.close()));
});

function options(list: TestRelay[], extra: Partial<RelayOptions> = {}): RelayOptions {
  return { relays: list.map((r) => r.url), WebSocket: NodeWebSocket as unknown as typeof WebSocket, waitMs: 2000, ...extra };
}

function profileEvent(secretKey: Uint8Array, content: Record<string, string>, createdAt: number) {
  return finalizeEvent({ kind: 0, created_at: createdAt, tags: [], content: JSON.stringify(content) }, secretKey);
}

const now = () => Math.floor(Date.now() / 1000);

describe("publishEvent", () => {
  it("publishes a signed kind 0 to every relay, which then holds it", async () => {
    const list = await relays(2);
    const key = generateSecretKey();
    const event = profileEvent(key, { name: "Ada", about: "Builds things" }, now());

    const outcome = await publishEvent(event, options(list));

    expect(outcome.accepted.sort()).toEqual(list.map((r) => r.url).sort());
    expect(outcome.failed).toEqual([]);
    for (const relay of list) expect(relay.events.map((e) => e.id)).toEqual([event.id]);
  });

  it("reports a relay that cannot be reached as failed, and still publishes to the others", async () => {
    const [up] = await relays(1);
    const down = await startRelay();
    await down.close();
    const event = profileEvent(generateSecretKey(), { name: "Ada" }, now());

    const outcome = await publishEvent(event, options([up!, down], { waitMs: 1500 }));

    expect(outcome.accepted).toEqual([up!.url]);
    expect(outcome.failed.map((f) => f.url)).toEqual([down.url]);
    expect(outcome.reached).toBe(1);
  });

  it("says so when no relay can be reached at all", async () => {
    const down = await startRelay();
    await down.close();
    const outcome = await publishEvent(profileEvent(generateSecretKey(), { name: "Ada" }, now()), options([down], { waitMs: 1000 }));
    expect(outcome).toMatchObject({ accepted: [], reached: 0 });
  });

  it("stops waiting for a relay that never answers once the wait is over", async () => {
    const [up] = await relays(1);
    const silent = await silentRelay();
    const event = profileEvent(generateSecretKey(), { name: "Ada" }, now());
    const startedAt = Date.now();

    const outcome = await publishEvent(event, { ...options([up!]), relays: [up!.url, silent], waitMs: 600 });

    expect(Date.now() - startedAt).toBeLessThan(1500);
    expect(outcome.accepted).toEqual([up!.url]);
    expect(outcome.failed).toEqual([{ url: silent, reason: "no answer in time" }]);
  });

  it("refuses an event whose signature does not match before sending anything", async () => {
    const list = await relays(1);
    const event = profileEvent(generateSecretKey(), { name: "Ada" }, now());
    await expect(publishEvent({ ...event, content: JSON.stringify({ name: "Mallory" }) }, options(list))).rejects.toThrow(/not valid/);
    expect(list[0]!.events).toEqual([]);
  });
});

describe("fetchLatestProfileEvent", () => {
  it("reads back the profile it published", async () => {
    const list = await relays(1);
    const key = generateSecretKey();
    const event = profileEvent(key, { name: "Ada", display_name: "Ada L." }, now());
    await publishEvent(event, options(list));

    const latest = await fetchLatestProfileEvent(getPublicKey(key), options(list));

    expect(latest?.id).toBe(event.id);
    expect(JSON.parse(latest!.content)).toEqual({ name: "Ada", display_name: "Ada L." });
  });

  it("prefers the newest profile when relays hold different versions", async () => {
    const [stale, fresh] = await relays(2);
    const key = generateSecretKey();
    const older = profileEvent(key, { name: "Old name" }, now() - 3600);
    const newer = profileEvent(key, { name: "New name" }, now());
    await publishEvent(older, options([stale!]));
    await publishEvent(newer, options([fresh!]));

    // Either order of the list: the newer one wins, not the first to answer.
    expect((await fetchLatestProfileEvent(getPublicKey(key), options([stale!, fresh!])))?.id).toBe(newer.id);
    expect((await fetchLatestProfileEvent(getPublicKey(key), options([fresh!, stale!])))?.id).toBe(newer.id);
  });

  it("ignores other keys' profiles and answers null when the key has none", async () => {
    const list = await relays(1);
    await publishEvent(profileEvent(generateSecretKey(), { name: "Someone else" }, now()), options(list));
    expect(await fetchLatestProfileEvent(getPublicKey(generateSecretKey()), options(list))).toBeNull();
  });

  it("answers with what arrived once the wait is over when a relay never answers", async () => {
    const [up] = await relays(1);
    const silent = await silentRelay();
    const key = generateSecretKey();
    const event = profileEvent(key, { name: "Ada" }, now());
    await publishEvent(event, options([up!]));
    const startedAt = Date.now();

    const latest = await fetchLatestProfileEvent(getPublicKey(key), { ...options([up!]), relays: [silent, up!.url], waitMs: 600 });

    expect(Date.now() - startedAt).toBeLessThan(1500);
    expect(latest?.id).toBe(event.id);
  });

  it("fails, rather than answering 'no profile', when no relay can be reached", async () => {
    const down = await startRelay();
    await down.close();
    await expect(fetchLatestProfileEvent(getPublicKey(generateSecretKey()), options([down], { waitMs: 1000 }))).rejects.toThrow(
      "Could not reach any Nostr relay",
    );
  });

  it("answers with what arrived when a relay cannot be reached", async () => {
    const [up] = await relays(1);
    const down = await startRelay();
    await down.close();
    const key = generateSecretKey();
    const event = profileEvent(key, { name: "Ada" }, now());
    await publishEvent(event, options([up!]));

    const latest = await fetchLatestProfileEvent(getPublicKey(key), options([down, up!], { waitMs: 1500 }));
    expect(latest?.id).toBe(event.id);
  });
});
