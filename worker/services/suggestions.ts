// The suggestion box: members send suggestions (SPEC.md §2, §5); the admin reads them and sets their
// status (SPEC.md §4 Suggestion).
import { desc, eq } from "drizzle-orm";
import type { SuggestionStatus } from "../../domain/admin";
import type { UserRow } from "../db/client";
import { suggestions, users } from "../db/schema";
import { notFound } from "../errors";
import type { AdminSuggestionView } from "../../domain/admin-views";
import type { Deps } from "./deps";

export type { AdminSuggestionView };

export type SuggestionRow = typeof suggestions.$inferSelect;

export async function sendSuggestion({ db }: Pick<Deps, "db">, me: UserRow, suggestion: string): Promise<SuggestionRow> {
  const [row] = await db.insert(suggestions).values({ id: crypto.randomUUID(), userId: me.id, suggestion, status: "pending" }).returning();
  return row!;
}

/** The latest suggestions, newest first, with who sent them. */
export async function listSuggestions({ db }: Pick<Deps, "db">, limit = 200): Promise<AdminSuggestionView[]> {
  const rows = await db
    .select({ s: suggestions, displayName: users.displayName, username: users.username })
    .from(suggestions)
    .leftJoin(users, eq(users.id, suggestions.userId))
    .orderBy(desc(suggestions.createdAt), desc(suggestions.id))
    .limit(limit);
  return rows.map(({ s, displayName, username }) => ({
    id: s.id,
    suggestion: s.suggestion,
    status: s.status,
    createdAt: s.createdAt,
    userId: s.userId,
    user: s.userId ? { displayName, username } : null,
  }));
}

export async function updateSuggestion({ db }: Pick<Deps, "db">, id: string, status: SuggestionStatus): Promise<SuggestionRow> {
  const [row] = await db.update(suggestions).set({ status }).where(eq(suggestions.id, id)).returning();
  if (!row) throw notFound("Suggestion not found", "suggestion_not_found");
  return row;
}
