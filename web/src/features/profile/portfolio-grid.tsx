import type { ReactNode } from "react";
import { ExternalLinkIcon } from "../../components/ui/icons";
import type { PortfolioItem } from "./types";

/** Read-only on public profiles; the owner's page passes `actions` (edit, remove) for each item. */
export function PortfolioGrid({ items, actions }: { items: PortfolioItem[]; actions?: (item: PortfolioItem) => ReactNode }) {
  if (items.length === 0) return <p className="rounded-xl border border-dashed border-stone-300 p-8 text-center text-stone-500">No portfolio items yet</p>;
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {items.map((item) => (
        <li key={item.id} className="flex flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm">
          {item.imageUrl ? (
            <img src={item.imageUrl} alt="" loading="lazy" referrerPolicy="no-referrer" className="aspect-video w-full bg-stone-100 object-cover" />
          ) : (
            <div aria-hidden="true" className="aspect-video w-full bg-gradient-to-br from-brand-100 to-stone-100" />
          )}
          <div className="flex flex-1 flex-col gap-2 p-4">
            <h3 className="font-semibold">{item.title}</h3>
            {item.description && <p className="line-clamp-3 text-sm text-stone-600">{item.description}</p>}
            <div className="mt-auto flex flex-wrap items-center justify-between gap-2 pt-1">
              {item.category && <span className="rounded-md bg-stone-100 px-2 py-0.5 text-xs text-stone-600">{item.category}</span>}
              {item.projectUrl && (
                <a
                  href={item.projectUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
                >
                  View Project
                  <ExternalLinkIcon size={14} />
                  <span className="sr-only">{`: ${item.title} (opens in a new tab)`}</span>
                </a>
              )}
            </div>
            {actions && <div className="-mx-4 -mb-4 mt-1 flex justify-end gap-1 border-t border-stone-100 px-2 py-1.5">{actions(item)}</div>}
          </div>
        </li>
      ))}
    </ul>
  );
}
