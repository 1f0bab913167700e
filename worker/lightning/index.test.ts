import { describe, expect, it } from "vitest";
import { DevWallet, MemoryDevWalletStore } from "./dev-backend";
import { LightningError, lightningBackendFor, lightningBackendKind } from "./index";
import { LnbitsBackend } from "./lnbits";
import { NwcBackend, type NwcTransport } from "./nwc";

const noTransport: NwcTransport = { request: () => Promise.reject(new Error("unused")) };
const NWC_URL = `nostr+walletconnect://${"b".repeat(64)}?relay=wss://relay.example.com&secret=${"a".repeat(64)}`;

describe("choosing the Lightning backend", () => {
  it("is the dev wallet by default", () => {
    expect(lightningBackendKind({})).toBe("dev");
    expect(lightningBackendKind({ LIGHTNING_BACKEND: " " })).toBe("dev");
    expect(lightningBackendFor({}, { devStore: new MemoryDevWalletStore() })).toBeInstanceOf(DevWallet);
  });

  it("builds LNbits and NWC from their settings", () => {
    const lnbits = lightningBackendFor({ LIGHTNING_BACKEND: "LNbits", LNBITS_URL: "https://lnbits.example.com", LNBITS_ADMIN_KEY: "k" });
    expect(lnbits).toBeInstanceOf(LnbitsBackend);
    expect(lnbits.kind).toBe("lnbits");
    const nwc = lightningBackendFor({ LIGHTNING_BACKEND: "nwc", NWC_URL }, { nwcTransport: noTransport });
    expect(nwc).toBeInstanceOf(NwcBackend);
  });

  it("refuses an unknown backend or missing settings with a configuration error", () => {
    const attempts: [Parameters<typeof lightningBackendFor>[0], Parameters<typeof lightningBackendFor>[1]][] = [
      [{ LIGHTNING_BACKEND: "lnd" }, {}],
      [{ LIGHTNING_BACKEND: "dev" }, {}],
      [{ LIGHTNING_BACKEND: "lnbits", LNBITS_URL: "https://lnbits.example.com" }, {}],
      [{ LIGHTNING_BACKEND: "nwc" }, {}],
      [{ LIGHTNING_BACKEND: "nwc", NWC_URL: "nostr+walletconnect://nope" }, { nwcTransport: noTransport }],
    ];
    for (const [env, deps] of attempts) {
      let thrown: unknown;
      try {
        lightningBackendFor(env, deps);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(LightningError);
      expect((thrown as LightningError).code).toBe("configuration");
    }
    expect(() => lightningBackendKind({ LIGHTNING_BACKEND: "lnd" })).toThrow(/dev, lnbits or nwc/);
  });
});
