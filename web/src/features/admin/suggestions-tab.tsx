// Suggestions (SPEC.md §2 /admin, §4 Suggestion): what members sent, with a status select.
import { useId } from "react";
import { SUGGESTION_STATUSES, type SuggestionStatus } from "../../../../domain/admin";
import { Card } from "../../components/ui/card";
import { Skeleton } from "../../components/ui/skeleton";
import { formatDate } from "../../lib/format";
import { statusSelectClasses } from "./reports-tab";
import { useAdminSuggestions, useUpdateSuggestion } from "./use-admin";
import type { AdminSuggestion } from "./types";

const LABELS: Record<SuggestionStatus, string> = { pending: "Pending", reviewed: "Reviewed", implemented: "Implemented", rejected: "Rejected" };

export function SuggestionsTab() {
  const suggestions = useAdminSuggestions();
  const list = suggestions.data ?? [];
  if (suggestions.isPending) {
    return (
      <div className="flex flex-col gap-3">
        <Skeleton className="h-24" />
        <Skeleton className="h-24" />
      </div>
    );
  }
  if (list.length === 0) return <p className="py-10 text-center text-sm text-stone-500">No suggestions yet.</p>;
  return (
    <ul className="flex flex-col gap-3" aria-label="Suggestions">
      {list.map((s) => (
        <li key={s.id}>
          <SuggestionCard suggestion={s} />
        </li>
      ))}
    </ul>
  );
}

function SuggestionCard({ suggestion: s }: { suggestion: AdminSuggestion }) {
  const id = useId();
  const update = useUpdateSuggestion();
  const from = s.user ? s.user.displayName || s.user.username : "A former member";
  return (
    <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start">
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <p className="text-sm break-words whitespace-pre-wrap text-stone-900">{s.suggestion}</p>
        <p className="text-xs text-stone-500">
          {from} · {formatDate(s.createdAt)}
        </p>
      </div>
      <label htmlFor={`${id}-status`} className="sr-only">
        Suggestion status
      </label>
      <select
        id={`${id}-status`}
        className={statusSelectClasses}
        value={s.status}
        disabled={update.isPending}
        onChange={(e) => update.mutate({ id: s.id, status: e.target.value as SuggestionStatus })}
      >
        {SUGGESTION_STATUSES.map((status) => (
          <option key={status} value={status}>
            {LABELS[status]}
          </option>
        ))}
      </select>
    </Card>
  );
}
