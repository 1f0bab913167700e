/** Five well-known public Nostr relays: where profiles are published and read from (SPEC.md §7). */
export const DEFAULT_NOSTR_RELAYS: readonly string[] = [
  "wss://relay.damus.io",
  "wss://nos.lol",
  "wss://relay.primal.net",
  "wss://relay.snort.social",
  "wss://purplepag.es",
];
