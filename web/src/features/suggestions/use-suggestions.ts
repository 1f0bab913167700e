// POST /api/suggestions {suggestion} (SPEC.md §7); members only. The answer is not read.
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api";

export const SUGGESTION_REQUIRED = "Please enter your suggestion or feature request";
export const SUGGESTION_MAX_LENGTH = 5000;

export function useSendSuggestion() {
  return useMutation({
    mutationFn: async (suggestion: string) => {
      await apiRequest("POST", "/api/suggestions", { suggestion });
    },
  });
}

/** Marks the suggestion box's own dialog: neither it nor typing in it moves the button aside (suggestion-box-button.tsx). */
export const OWN_DIALOG = "data-suggestion-box";
