// The generated robot avatar (DiceBear "bottts"), built locally from the username: no remote image service.
// Imported lazily by the avatar component so the generator stays out of the first page's bundle.
import { createAvatar } from "@dicebear/core";
import { bottts } from "@dicebear/collection";

export function robotAvatarDataUri(seed: string): string {
  return createAvatar(bottts, { seed, size: 200 }).toDataUri();
}
