// Query hooks of the profile area. Keys are the request path's parts (SPEC.md §7).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ALIAS_MIN_LENGTH, type OwnUser, type PublicUser } from "../../../../domain/profile";
import { apiJson, apiRequest } from "../../lib/api";
import { useDebouncedValue } from "../../lib/use-debounced-value";
import { useAuth } from "../auth/auth-context";
import { gigKeys } from "../gigs/use-gigs";
import type { PortfolioItem, Review } from "./types";

export const profileKeys = {
  byNpub: (npub: string) => ["/api/users/by-npub", npub] as const,
  byNpubAll: () => ["/api/users/by-npub"] as const,
  byId: (id: string) => ["/api/users", id] as const,
  byIdAll: () => ["/api/users"] as const,
  portfolio: (userId: string) => ["/api/portfolio/user", userId] as const,
  reviews: (userId: string) => ["/api/reviews/user", userId] as const,
  aliasCheck: (alias: string) => ["/api/check-gigstr-alias", { alias }] as const,
};

/** What PATCH /api/user/me accepts; empty strings mean "absent". */
export interface ProfileEdit {
  displayName?: string;
  profilePicture?: string;
  bio?: string;
  nip05?: string;
  lightningAddress?: string;
  gigstrAlias?: string;
  /** "Send my notifications as Nostr DMs". */
  nostrDmNotifications?: boolean;
}

/** PATCH /api/user/me, then the session's user is fetched again (SPEC.md §7: the answer is not read). */
export function useUpdateProfile() {
  const { refreshUser } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (edit: ProfileEdit) => {
      await apiJson<OwnUser>("PATCH", "/api/user/me", edit);
      await refreshUser();
      // The member's name and picture also show on their public profile and on their gigs.
      await Promise.all(
        [profileKeys.byNpubAll(), profileKeys.byIdAll(), gigKeys.all()].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
    },
  });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: () => apiRequest("DELETE", "/api/user/me") });
}

export type AliasAvailability = "unknown" | "checking" | "available" | "taken";

export const ALIAS_CHECK_DEBOUNCE_MS = 300;

/**
 * Live availability of an alias (already normalised). Checked only from 3 characters; a failed check is
 * logged and reads as unknown (SPEC.md §8).
 */
export function useAliasAvailability(alias: string): AliasAvailability {
  const settled = useDebouncedValue(alias, ALIAS_CHECK_DEBOUNCE_MS);
  const enabled = settled.length >= ALIAS_MIN_LENGTH;
  const check = useQuery({
    queryKey: profileKeys.aliasCheck(settled),
    queryFn: async (): Promise<AliasAvailability> => {
      try {
        const answer = await apiJson<{ alias: string; available: boolean }>(
          "GET",
          `/api/check-gigstr-alias?alias=${encodeURIComponent(settled)}`,
        );
        return answer.available ? "available" : "taken";
      } catch (err) {
        console.error("Alias availability check failed", err);
        return "unknown";
      }
    },
    enabled,
    // Someone else may claim it meanwhile: ask again whenever the form shows this alias anew.
    staleTime: 0,
  });
  if (alias.length < ALIAS_MIN_LENGTH) return "unknown";
  if (settled !== alias || check.isFetching || check.isPending) return "checking";
  return check.data ?? "unknown";
}

export function usePublicUser(npub: string) {
  return useQuery({
    queryKey: profileKeys.byNpub(npub),
    queryFn: () => apiJson<PublicUser>("GET", `/api/users/by-npub/${encodeURIComponent(npub)}`),
    // The Worker renders /user/:npub (decision 030): its "User not found" comes with the page, not asked again.
    retryOnMount: false,
  });
}

/** Lists that may fail (or not exist yet) read as empty: the profile still shows. */
async function listOrEmpty<T>(path: string): Promise<T[]> {
  try {
    return await apiJson<T[]>("GET", path);
  } catch (err) {
    console.error(`Failed to load ${path}`, err);
    return [];
  }
}

export function usePortfolio(userId: string | undefined) {
  return useQuery({
    queryKey: profileKeys.portfolio(userId ?? ""),
    queryFn: () => listOrEmpty<PortfolioItem>(`/api/portfolio/user/${encodeURIComponent(userId!)}`),
    enabled: !!userId,
  });
}

export function useReviews(userId: string | undefined) {
  return useQuery({
    queryKey: profileKeys.reviews(userId ?? ""),
    queryFn: () => listOrEmpty<Review>(`/api/reviews/user/${encodeURIComponent(userId!)}`),
    enabled: !!userId,
  });
}

/** What POST /api/portfolio and PATCH /api/portfolio/{id} take; null clears an optional field. */
export interface PortfolioItemInput {
  title: string;
  description: string | null;
  imageUrl: string | null;
  projectUrl: string | null;
  category: string | null;
}

/** The owner's portfolio changes; the cached list follows each answer (the list is newest first). */
export function useAddPortfolioItem(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PortfolioItemInput) => apiJson<PortfolioItem>("POST", "/api/portfolio", input),
    onSuccess: (item) => queryClient.setQueryData<PortfolioItem[]>(profileKeys.portfolio(userId), (items = []) => [item, ...items]),
  });
}

export function useEditPortfolioItem(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: PortfolioItemInput }) =>
      apiJson<PortfolioItem>("PATCH", `/api/portfolio/${encodeURIComponent(id)}`, input),
    onSuccess: (item) =>
      queryClient.setQueryData<PortfolioItem[]>(profileKeys.portfolio(userId), (items = []) => items.map((i) => (i.id === item.id ? item : i))),
  });
}

export function useRemovePortfolioItem(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest("DELETE", `/api/portfolio/${encodeURIComponent(id)}`);
      return id;
    },
    onSuccess: (id) => queryClient.setQueryData<PortfolioItem[]>(profileKeys.portfolio(userId), (items = []) => items.filter((i) => i.id !== id)),
  });
}
