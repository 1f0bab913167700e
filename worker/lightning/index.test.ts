import { describe, expect, it } from "vitest";
import { DevWallet, MemoryDevWalletStore } from "./dev-backend";
import { devWalletAllowed, LightningError, lightningBackendFor, lightningBackendKind, paymentsOffReason, PaymentsSwitchedOff } from "./index";
import { LnbitsBackend } from "./lnbits";
import { NwcBackend, type NwcTransport } from "./nwc";

const noTransport: NwcTransport = { request: () => Promise.reject(new Error("unused")) };
const NWC_URL = `nostr+walletconnect://${"b".repeat(64)}?relay=wss://relay.example.com&secret=${"a".repeat(64)}`;

describe("choosing the Lightning backend", () => {
  const LOCAL = { LOCAL_DEV: "1" };

  it("is the dev wallet by default on a local run", () => {
    expect(lightningBackendKind(LOCAL)).toBe("dev");
    expect(lightningBackendKind({ ...LOCAL, LIGHTNING_BACKEND: " " })).toBe("dev");
    expect(lightningBackendFor(LOCAL, { devStore: new MemoryDevWalletStore() })).toBeInstanceOf(DevWallet);
    expect(devWalletAllowed(LOCAL)).toBe(true);
    expect(paymentsOffReason(LOCAL)).toBeNull();
  });

  it("switches payments off on a deployed Worker with dev, unset or an unknown backend, naming the setting", () => {
    for (const env of [{}, { LIGHTNING_BACKEND: "dev" }, { LIGHTNING_BACKEND: " DEV " }, { LIGHTNING_BACKEND: "" }, { LIGHTNING_BACKEND: "dev", LOCAL_DEV: "true" }]) {
      expect(devWalletAllowed(env)).toBe(false);
      expect(() => lightningBackendFor(env, { devStore: new MemoryDevWalletStore() })).toThrow(PaymentsSwitchedOff);
      expect(paymentsOffReason(env)).toBe(
        "Payments are switched off: LIGHTNING_BACKEND must be set to lnbits or nwc on a deployed Gigstr (the simulated dev wallet only runs locally).",
      );
    }
    for (const env of [{ LIGHTNING_BACKEND: "lnd" }, { ...LOCAL, LIGHTNING_BACKEND: "lnd" }]) {
      expect(devWalletAllowed(env)).toBe(false);
      let thrown: unknown;
      try {
        lightningBackendFor(env, {});
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(PaymentsSwitchedOff);
      expect(thrown).toMatchObject({ status: 503, code: "payments_off", message: expect.stringContaining('LIGHTNING_BACKEND is "lnd"') });
    }
    // A deployed Worker with a real wallet moves money.
    expect(paymentsOffReason({ LIGHTNING_BACKEND: "lnbits" })).toBeNull();
    expect(paymentsOffReason({ LIGHTNING_BACKEND: "nwc" })).toBeNull();
  });

  it("builds LNbits and NWC from their settings", () => {
    const lnbits = lightningBackendFor({ LIGHTNING_BACKEND: "LNbits", LNBITS_URL: "https://lnbits.example.com", LNBITS_ADMIN_KEY: "k" });
    expect(lnbits).toBeInstanceOf(LnbitsBackend);
    expect(lnbits.kind).toBe("lnbits");
    const nwc = lightningBackendFor({ LIGHTNING_BACKEND: "nwc", NWC_URL }, { nwcTransport: noTransport });
    expect(nwc).toBeInstanceOf(NwcBackend);
  });

  it("refuses missing settings with a configuration error", () => {
    const attempts: [Parameters<typeof lightningBackendFor>[0], Parameters<typeof lightningBackendFor>[1]][] = [
      [{ LIGHTNING_BACKEND: "dev", LOCAL_DEV: "1" }, {}],
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
  });
});
