// Portfolio items a member shows on their profile; only the owner changes them.
import { and, desc, eq } from "drizzle-orm";
import type { Db, UserRow } from "../context";
import { portfolioItems } from "../db/schema";
import { notFound } from "../errors";

type Item = typeof portfolioItems.$inferSelect;
export const MAX_PORTFOLIO_ITEMS = 50;

const view = (i: Item) => ({ id: i.id, title: i.title, description: i.description, imageUrl: i.imageUrl, projectUrl: i.projectUrl, category: i.category, createdAt: i.createdAt });

export async function portfolioOf(db: Db, userId: string) {
  const rows = await db.select().from(portfolioItems).where(eq(portfolioItems.userId, userId)).orderBy(desc(portfolioItems.createdAt)).limit(MAX_PORTFOLIO_ITEMS);
  return rows.map(view);
}

export async function addPortfolioItem(
  db: Db,
  me: UserRow,
  input: { title: string; description?: string | null; imageUrl?: string | null; projectUrl?: string | null; category?: string | null },
) {
  const [row] = await db
    .insert(portfolioItems)
    .values({ id: crypto.randomUUID(), userId: me.id, title: input.title, description: input.description ?? null, imageUrl: input.imageUrl ?? null, projectUrl: input.projectUrl ?? null, category: input.category ?? null })
    .returning();
  return view(row!);
}

export async function editPortfolioItem(db: Db, me: UserRow, id: string, input: Partial<Omit<Item, "id" | "userId" | "createdAt">>) {
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const where = and(eq(portfolioItems.id, id), eq(portfolioItems.userId, me.id));
  const [row] = Object.keys(changes).length
    ? await db.update(portfolioItems).set(changes).where(where).returning()
    : await db.select().from(portfolioItems).where(where);
  if (!row) throw notFound("Portfolio item not found", "portfolio_item_not_found");
  return view(row);
}

export async function removePortfolioItem(db: Db, me: UserRow, id: string) {
  const removed = await db.delete(portfolioItems).where(and(eq(portfolioItems.id, id), eq(portfolioItems.userId, me.id))).returning({ id: portfolioItems.id });
  if (removed.length === 0) throw notFound("Portfolio item not found", "portfolio_item_not_found");
}
