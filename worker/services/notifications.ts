// Notifications: written inside the same atomic change as the event that causes them.
import type { AtomicChange, Guard } from "../db/atomic";

export interface NotificationDraft {
  userId: string | null | undefined;
  gigId?: string | null;
  type: string;
  title: string;
  message: string;
  actorId?: string | null;
}

export function notify(change: AtomicChange, when: Guard, ...drafts: NotificationDraft[]): void {
  for (const d of drafts) {
    if (!d.userId || d.userId === d.actorId) continue;
    change.insert(
      "notifications",
      {
        id: crypto.randomUUID(),
        userId: d.userId,
        gigId: d.gigId ?? null,
        type: d.type,
        title: d.title,
        message: d.message,
        actorId: d.actorId ?? null,
        isRead: false,
        createdAt: change.at,
      },
      when,
    );
  }
}
