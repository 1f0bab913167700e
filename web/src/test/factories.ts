import type { OwnUser } from "../../../domain/profile";

let counter = 0;

export function makeUser(overrides: Partial<OwnUser> = {}): OwnUser {
  counter += 1;
  return {
    id: `user-${counter}`,
    username: "npub1sg6plzptd64u62a878hep2kev88swjh3tw00gjsfl8f237lmu63q0uf63m",
    displayName: "Satoshi",
    profilePicture: null,
    picture: null,
    bio: null,
    nip05: null,
    nostrPubkey: "82341f882b6eabcd2ba7f1ef90aad961cf074af15b9ef44a09f9d2a8fbfbe6a2",
    gigstrAlias: null,
    gigstrAliasAddress: null,
    completedGigs: 0,
    successfulGigs: 0,
    successRate: 100,
    averageRating: 0,
    totalReviews: 0,
    createdAt: "2026-11-01T00:00:00.000Z",
    lightningAddress: null,
    nostrDmNotifications: false,
    ...overrides,
  };
}
