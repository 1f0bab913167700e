// A NIP-46 remote signer ("bunker") for tests and local tries: applesauce-signers' NostrConnectProvider, an
// independent implementation of the signer side (its own NIP-44, request handling and answers; not nostr-tools'
// BunkerSigner, which is what the web app connects with), holding a member's key and talking over a relay. It
// answers the two ways a client connects: a bunker:// link it hands out, and a nostrconnect:// URI a client shows
// (the QR code a person scans with their signer app). Ours is only the relay wiring (nostr-tools' pool, dialling
// with the `ws` package, as the provider's subscription and publish methods) and a switch to refuse signing, as a person tapping "No" would.
import { NostrConnectProvider, PrivateKeySigner } from "applesauce-signers";
import { AbstractSimplePool } from "nostr-tools/abstract-pool";
import { generateSecretKey, getPublicKey, verifyEvent, type Event, type EventTemplate } from "nostr-tools/pure";
import { bytesToHex } from "nostr-tools/utils";
import { Observable } from "rxjs";
import { WebSocket } from "ws";

export interface LocalBunker {
  /** bunker://<the signer's own key>?relay=…&secret=…, what a signer app shows for "connect an app". */
  bunkerUrl: string;
  /** The member's public key (hex): the key this bunker signs with. */
  userPubkey: string;
  /** Every event it signed for a client, oldest first. */
  signed: Event[];
  /** Templates it was asked to sign and refused. */
  refused: EventTemplate[];
  /** Clients (their public keys) that connected, by either way. */
  clients: string[];
  /** Answers a nostrconnect:// URI (a client's QR code): connects to that client over the URI's relays. */
  connectTo(uri: string): Promise<void>;
  /** From now on refuse (or again accept) every sign request, as a person answering "No". */
  refuseSigning(refuse: boolean): void;
  /** Stops answering; the relay connections close. */
  close(): Promise<void>;
}

export interface BunkerOptions {
  /** The relay(s) the bunker:// link names and the bunker listens on. */
  relays: string[];
  /** The member's secret key; a new one by default. */
  userKey?: Uint8Array;
  /** The bunker:// link's one-time secret; a random one by default. */
  secret?: string;
}

/**
 * nostr-tools' pool as the provider's relay methods: a subscription as an Observable, a publish as a Promise.
 * `listening` settles once the latest subscription is open on the relays (their EOSE): requests are ephemeral
 * events (kind 24133), which a relay only hands to those already subscribed.
 */
function poolMethods(pool: AbstractSimplePool) {
  const methods = {
    listening: Promise.resolve(),
    subscription: (relays: string[], filters: object[]) =>
      new Observable<Event>((subscriber) => {
        const opened: Promise<void>[] = [];
        const closers = filters.map((filter) => {
          let open!: () => void;
          opened.push(new Promise<void>((resolve) => (open = resolve)));
          return pool.subscribeMany(relays, filter as Parameters<AbstractSimplePool["subscribeMany"]>[1], {
            onevent: (event) => subscriber.next(event),
            oneose: () => open(),
          });
        });
        methods.listening = Promise.all(opened).then(() => undefined);
        return () => closers.forEach((closer) => closer.close());
      }),
    publish: async (relays: string[], event: Event) => {
      await Promise.any(pool.publish(relays, event));
    },
  };
  return methods;
}

export async function startBunker(options: BunkerOptions): Promise<LocalBunker> {
  const pool = new AbstractSimplePool({
    verifyEvent: (event) => verifyEvent(event),
    websocketImplementation: WebSocket as unknown as typeof globalThis.WebSocket,
    maxWaitForConnection: 5000,
  });
  const methods = poolMethods(pool);
  const upstream = new PrivateKeySigner(options.userKey ?? generateSecretKey());
  const userPubkey = getPublicKey(upstream.key);
  const signed: Event[] = [];
  const refused: EventTemplate[] = [];
  const clients: string[] = [];
  let refuse = false;
  const providers: NostrConnectProvider[] = [];

  /** One provider per client (the package's provider serves one client at a time), each with a key of its own. */
  const provider = (relays: string[], secret?: string) => {
    const created = new NostrConnectProvider({
      relays,
      upstream: {
        getPublicKey: () => upstream.getPublicKey(),
        signEvent: async (template) => {
          const event = await upstream.signEvent(template);
          signed.push(event);
          return event;
        },
        nip04: upstream.nip04,
        nip44: upstream.nip44,
      },
      signer: new PrivateKeySigner(),
      bunkerSecret: secret,
      subscriptionMethod: methods.subscription,
      publishMethod: methods.publish,
      onClientConnect: (client) => void clients.push(client),
      onSignEvent: (template) => {
        if (!refuse) return true;
        refused.push(template);
        return false;
      },
    });
    providers.push(created);
    return created;
  };

  const secret = options.secret ?? bytesToHex(generateSecretKey()).slice(0, 32);
  const listening = provider(options.relays, secret);
  await listening.start();
  await methods.listening;
  const bunkerUrl = await listening.getBunkerURI();

  return {
    bunkerUrl,
    userPubkey,
    signed,
    refused,
    clients,
    async connectTo(uri) {
      const relays = new URL(uri).searchParams.getAll("relay");
      await provider(relays).start(uri);
      await methods.listening;
    },
    refuseSigning(value) {
      refuse = value;
    },
    async close() {
      await Promise.all(providers.map((p) => p.stop()));
      pool.destroy();
    },
  };
}
