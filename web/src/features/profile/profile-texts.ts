// The spec's texts of the profile area (SPEC.md §5, §8), in one place so screens and tests agree.

export const INVALID_LIGHTNING_ADDRESS_TITLE = "Invalid Lightning Address";
export const INVALID_LIGHTNING_ADDRESS_TEXT = "Please enter a valid Lightning address (not a regular email) or LNURL.";

export const ACTIVE_ESCROW_DELETE_TEXT =
  "You have active gigs with escrow in progress. Please complete or cancel all active gigs before deleting your account.";

/** The Cannot Delete Account toast's text for a server message (SPEC.md §8). */
export function cannotDeleteAccountText(serverMessage: string | undefined): string {
  if (serverMessage && serverMessage.toLowerCase().includes("active escrow")) return ACTIVE_ESCROW_DELETE_TEXT;
  return serverMessage || "Please try again.";
}
