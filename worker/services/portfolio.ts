// Portfolio items a member shows on their profile; only the owner changes them.
import { and, desc, eq, sql } from "drizzle-orm";
import type { UserRow } from "../db/client";
import { portfolioItems } from "../db/schema";
import { conflict, notFound } from "../errors";
import { nowIso } from "../db/client";
import type { Deps } from "./deps";

type Item = typeof portfolioItems.$inferSelect;
/** Most items a member can have: a profile shows them all, and each is a row everyone's visit reads. */
export const MAX_PORTFOLIO_ITEMS = 50;

const view = (i: Item) => ({ id: i.id, title: i.title, description: i.description, imageUrl: i.imageUrl, projectUrl: i.projectUrl, category: i.category, createdAt: i.createdAt });

export async function portfolioOf({ db }: Pick<Deps, "db">, userId: string) {
  const rows = await db.select().from(portfolioItems).where(eq(portfolioItems.userId, userId)).orderBy(desc(portfolioItems.createdAt)).limit(MAX_PORTFOLIO_ITEMS);
  return rows.map(view);
}

export async function addPortfolioItem(
  { db }: Pick<Deps, "db">,
  me: UserRow,
  input: { title: string; description?: string | null; imageUrl?: string | null; projectUrl?: string | null; category?: string | null },
) {
  // Inserted only while the member has fewer than the cap, in the same statement, so racing adds stop there too.
  // Every column of portfolio_items, in the table's order (an insert from a select names them all).
  const [row] = await db
    .insert(portfolioItems)
    .select(
      sql`SELECT ${crypto.randomUUID()}, ${me.id}, ${input.title}, ${input.description ?? null}, ${input.imageUrl ?? null}, ${input.projectUrl ?? null}, ${input.category ?? null}, ${nowIso()}
          WHERE (SELECT COUNT(*) FROM portfolio_items WHERE user_id = ${me.id}) < ${MAX_PORTFOLIO_ITEMS}`,
    )
    .returning();
  if (!row) throw conflict(`You can have at most ${MAX_PORTFOLIO_ITEMS} portfolio items. Remove one to add another.`, "portfolio_full");
  return view(row);
}

export async function editPortfolioItem({ db }: Pick<Deps, "db">, me: UserRow, id: string, input: Partial<Omit<Item, "id" | "userId" | "createdAt">>) {
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const where = and(eq(portfolioItems.id, id), eq(portfolioItems.userId, me.id));
  const [row] = Object.keys(changes).length
    ? await db.update(portfolioItems).set(changes).where(where).returning()
    : await db.select().from(portfolioItems).where(where);
  if (!row) throw notFound("Portfolio item not found", "portfolio_item_not_found");
  return view(row);
}

export async function removePortfolioItem({ db }: Pick<Deps, "db">, me: UserRow, id: string) {
  const removed = await db.delete(portfolioItems).where(and(eq(portfolioItems.id, id), eq(portfolioItems.userId, me.id))).returning({ id: portfolioItems.id });
  if (removed.length === 0) throw notFound("Portfolio item not found", "portfolio_item_not_found");
}
