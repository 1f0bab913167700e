// The Browse tab (SPEC.md §2): type toggle, search (an npub opens that profile), category and budget
// filters, open gigs a page at a time, six skeleton cards while loading, and the two empty states.
import { memo, useId, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { Button, buttonClasses } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { BriefcaseIcon, XIcon } from "../../components/ui/icons";
import { Input } from "../../components/ui/input";
import { errorText } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useNow } from "../../lib/hydration";
import { useDebouncedValue } from "../../lib/use-debounced-value";
import { mainTabHref } from "../layout/main-tab";
import {
  BROWSE_CATEGORIES,
  BUDGET_BANDS,
  DEFAULT_BROWSE_FILTERS,
  GIG_TYPE_FILTERS,
  isNpubSearch,
  type BrowseCategory,
  type BrowseFilters,
  type BudgetBand,
} from "./browse-query";
import { GigCard, GigCardSkeleton } from "./gig-card";
import { useGigDialogs } from "./gig-dialogs-context";
import { useBrowseGigs } from "./use-gigs";

export const SEARCH_DEBOUNCE_MS = 300;
const BROWSE_SKELETONS = 6;

/**
 * Drawn again only for what it reads itself (its filters, its list, the clock). The home page's tab around it
 * (home.tsx MainTabContent) is drawn again once hydrated, in the task that ends the hydration (lib/hydration.tsx
 * useHydrated); without `memo` that drew every card of the list again there, in one piece.
 */
export const BrowseGigs = memo(function BrowseGigs() {
  const id = useId();
  const navigate = useNavigate();
  const { openDetails } = useGigDialogs();
  const [filters, setFilters] = useState<Omit<BrowseFilters, "q">>(DEFAULT_BROWSE_FILTERS);
  const [term, setTerm] = useState("");
  const debounced = useDebouncedValue(term, SEARCH_DEBOUNCE_MS);
  // Clearing is immediate; an npub is a person, not a search of gigs.
  const q = term.trim() === "" || isNpubSearch(debounced) ? "" : debounced.trim();
  const gigs = useBrowseGigs({ ...filters, q });
  const list = gigs.data?.pages.flatMap((page) => page.gigs) ?? [];
  // The Worker renders the first page (decision 030): the cards' ages count from its render until hydrated.
  const now = useNow();

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    const value = term.trim();
    if (isNpubSearch(value)) navigate(`/user/${encodeURIComponent(value)}`);
  };

  return (
    <section aria-labelledby="browse-heading" className="flex flex-col gap-6">
      <div>
        <h1 id="browse-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
          Browse Gigs
        </h1>
        <p className="mt-1 text-stone-600">Small paid jobs in sats. Payment waits in escrow until the work is approved.</p>
      </div>

      <div className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-3 shadow-sm sm:p-4">
        <div role="group" aria-label="Gig type" className="grid grid-cols-3 gap-1 rounded-lg bg-stone-100 p-1 sm:self-start">
          {GIG_TYPE_FILTERS.map((option) => {
            const selected = filters.gigType === option.value;
            return (
              <button
                key={option.value}
                type="button"
                aria-pressed={selected}
                onClick={() => setFilters((f) => ({ ...f, gigType: option.value }))}
                className={cn(
                  "h-9 cursor-pointer rounded-md px-3 text-sm font-medium whitespace-nowrap transition-colors sm:px-5",
                  selected ? "bg-white text-stone-900 shadow-sm" : "text-stone-600 hover:text-stone-900",
                )}
              >
                {option.label}
              </button>
            );
          })}
        </div>

        <div className="flex flex-col gap-3 md:flex-row md:items-end">
          <form role="search" onSubmit={submitSearch} className="flex flex-1 flex-col gap-1.5">
            <label htmlFor={`${id}-search`} className="text-xs font-medium text-stone-600">
              Search
            </label>
            <div className="relative">
              <Input
                id={`${id}-search`}
                type="search"
                value={term}
                onChange={(e) => setTerm(e.target.value)}
                placeholder="Search title, description, category or an npub"
                enterKeyHint="search"
                className="pr-9"
              />
              {term && (
                <button
                  type="button"
                  aria-label="Clear search"
                  onClick={() => setTerm("")}
                  className="absolute top-1/2 right-1.5 -translate-y-1/2 cursor-pointer rounded-md p-1 text-stone-400 hover:bg-stone-100 hover:text-stone-700"
                >
                  <XIcon size={16} />
                </button>
              )}
            </div>
          </form>
          <div className="grid grid-cols-2 gap-3 md:w-96">
            <div className="flex flex-col gap-1.5">
              <label htmlFor={`${id}-category`} className="text-xs font-medium text-stone-600">
                Category
              </label>
              <select
                id={`${id}-category`}
                value={filters.category}
                onChange={(e) => setFilters((f) => ({ ...f, category: e.target.value as BrowseCategory }))}
                className="h-10 w-full cursor-pointer rounded-lg border border-stone-300 bg-white px-2 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none"
              >
                {BROWSE_CATEGORIES.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex flex-col gap-1.5">
              <label htmlFor={`${id}-budget`} className="text-xs font-medium text-stone-600">
                Budget
              </label>
              <select
                id={`${id}-budget`}
                value={filters.budget}
                onChange={(e) => setFilters((f) => ({ ...f, budget: e.target.value as BudgetBand }))}
                className="h-10 w-full cursor-pointer rounded-lg border border-stone-300 bg-white px-2 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none"
              >
                {BUDGET_BANDS.map((b) => (
                  <option key={b.value} value={b.value}>
                    {b.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </div>
      </div>

      {gigs.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <p role="status" className="sr-only">
            Loading gigs
          </p>
          {Array.from({ length: BROWSE_SKELETONS }, (_, i) => (
            <GigCardSkeleton key={i} />
          ))}
        </div>
      ) : gigs.isError ? (
        <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
          <h2 className="text-lg font-semibold">Could not load gigs</h2>
          <p className="max-w-sm text-sm text-stone-600">{errorText(gigs.error, "Please try again.")}</p>
          <Button variant="outline" onClick={() => gigs.refetch()}>
            Try Again
          </Button>
        </Card>
      ) : list.length === 0 ? (
        q ? (
          <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
            <h2 className="text-lg font-semibold break-words">No results for &ldquo;{q}&rdquo;</h2>
            <p className="max-w-sm text-sm text-stone-600">Try another word, or clear the search to see every open gig.</p>
            <Button variant="outline" onClick={() => setTerm("")}>
              Clear Search
            </Button>
          </Card>
        ) : (
          <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
            <span className="flex h-12 w-12 items-center justify-center rounded-full bg-stone-100 text-stone-500">
              <BriefcaseIcon size={22} />
            </span>
            <h2 className="text-lg font-semibold">No gigs available</h2>
            <p className="max-w-sm text-sm text-stone-600">Check back soon, or post the first gig yourself.</p>
            <Link to={mainTabHref("post")} className={buttonClasses("primary", "md", "mt-1")}>
              Post a Gig
            </Link>
          </Card>
        )
      ) : (
        <>
          <h2 className="sr-only">Open gigs</h2>
          <ul className={cn("gig-grid grid gap-4 sm:grid-cols-2 lg:grid-cols-3", gigs.isFetching && !gigs.isFetchingNextPage && "opacity-70")}>
            {list.map((gig) => (
              <li key={gig.id} className="flex flex-col">
                <GigCard gig={gig} now={now} onOpen={(g) => openDetails(g.id)} />
              </li>
            ))}
          </ul>
          {gigs.hasNextPage && (
            <div className="flex justify-center">
              <Button variant="outline" onClick={() => gigs.fetchNextPage()} disabled={gigs.isFetchingNextPage}>
                {gigs.isFetchingNextPage ? "Loading..." : "Load more"}
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
});
