import { useQuery } from "@tanstack/react-query";
import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { INBOX_PROTOCOL, INBOX_RECONNECT_MS } from "../../../../domain/notifications";
import { FakeWebSocket } from "../../test/fake-websocket";
import { apiJson } from "../../lib/api";
import { makeUser } from "../../test/factories";
import { mockApi } from "../../test/mock-api";
import { LocationProbe, renderWithApp } from "../../test/render";
import { NotificationsBell } from "./notifications-bell";
import { notificationKeys, type AppNotification } from "./use-notifications";

const note = (over: Partial<AppNotification>): AppNotification => ({
  id: "n-1",
  isRead: false,
  gigId: "gig-1",
  type: "claimed",
  title: "Gig Claimed",
  message: 'A worker claimed "Bakery website".',
  createdAt: new Date().toISOString(),
  actorName: "Walt",
  actorPicture: null,
  ...over,
});

function renderBell({ count = 0, list = [] as AppNotification[], signedIn = true } = {}) {
  const api = mockApi({
    "GET /api/notifications/unread-count": () => count,
    "GET /api/notifications": () => list,
    "PATCH /api/notifications/mark-all-read": () => ({ success: true }),
    "PATCH /api/notifications/n-1/read": () => ({ success: true }),
    "PATCH /api/notifications/n-2/read": () => ({ success: true }),
  });
  const view = renderWithApp(
    <>
      <NotificationsBell />
      <LocationProbe />
    </>,
    { user: signedIn ? makeUser() : undefined },
  );
  return { api, user: userEvent.setup(), view };
}

/** The bell, once its menu code has loaded (until then a disabled stand-in shows the badge). */
async function bell(name: string) {
  let button!: HTMLElement;
  await waitFor(() => {
    button = screen.getByRole("button", { name });
    expect(button).toBeEnabled();
  });
  return button;
}

describe("notifications bell", () => {
  it("badges the unread count, 9+ above 9", async () => {
    renderBell({ count: 12 });
    expect(await screen.findByTestId("unread-badge")).toHaveTextContent("9+");
    expect(await screen.findByRole("button", { name: "Notifications, 9+ unread" })).toBeInTheDocument();
  });

  it("shows the exact count up to 9 and no badge when all is read", async () => {
    renderBell({ count: 3 });
    expect(await screen.findByTestId("unread-badge")).toHaveTextContent("3");
  });

  it("asks nothing when signed out", async () => {
    const { api } = renderBell({ signedIn: false });
    await new Promise((r) => setTimeout(r, 50));
    expect(api.calls.filter((c) => c.path.startsWith("/api/notifications"))).toHaveLength(0);
  });

  it("reads the list only when the member reaches for the bell, and once more at each later opening", async () => {
    const { api, user } = renderBell({ count: 1, list: [note({})] });
    const button = await bell("Notifications, 1 unread");
    await waitFor(() => expect(api.callsTo("GET", "/api/notifications/unread-count")).toHaveLength(1));
    expect(api.callsTo("GET", "/api/notifications")).toHaveLength(0);

    await user.click(button);
    expect(await screen.findByRole("menuitem", { name: /Gig Claimed/ })).toBeInTheDocument();
    expect(api.callsTo("GET", "/api/notifications")).toHaveLength(1);

    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("menu")).not.toBeInTheDocument());
    await user.click(button);
    await waitFor(() => expect(api.callsTo("GET", "/api/notifications")).toHaveLength(2));
    expect(screen.getByRole("menuitem", { name: /Gig Claimed/ })).toBeInTheDocument();
  });

  it("opens the list: title, no Mark all read and the empty text when there is nothing", async () => {
    const { user } = renderBell({ count: 0, list: [] });
    await user.click(await bell("Notifications"));
    const menu = await screen.findByRole("menu");
    expect(menu).toHaveTextContent("Notifications");
    expect(await screen.findByText("No notifications yet")).toBeInTheDocument();
    expect(screen.queryByRole("menuitem", { name: /Mark all read/ })).not.toBeInTheDocument();
    expect(screen.queryByTestId("unread-badge")).not.toBeInTheDocument();
    expect(screen.getByTestId("notifications-list").className).toContain("max-h-[400px]");
  });

  it("marks all read, then reads the list and count again", async () => {
    const { api, user } = renderBell({ count: 1, list: [note({})] });
    await user.click(await bell("Notifications, 1 unread"));
    await user.click(await screen.findByRole("menuitem", { name: /Mark all read/ }));
    await waitFor(() => expect(api.callsTo("PATCH", "/api/notifications/mark-all-read")).toHaveLength(1));
    await waitFor(() => expect(api.callsTo("GET", "/api/notifications/unread-count").length).toBeGreaterThan(1));
  });

  it("marks an unread one read and goes to its gig on the Active tab; a message opens the chat", async () => {
    const { api, user } = renderBell({ count: 1, list: [note({ id: "n-2", type: "message", title: "New Message", gigId: "gig-9" })] });
    await user.click(await bell("Notifications, 1 unread"));
    const item = await screen.findByRole("menuitem", { name: /New Message/ });
    const listReads = api.callsTo("GET", "/api/notifications").length;
    await user.click(item);
    expect(screen.getByTestId("location")).toHaveTextContent("/?tab=active&gigId=gig-9&openChat=true");
    await waitFor(() => expect(api.callsTo("PATCH", "/api/notifications/n-2/read")).toHaveLength(1));
    await waitFor(() => expect(api.callsTo("GET", "/api/notifications").length).toBeGreaterThan(listReads));
    await waitFor(() => expect(api.callsTo("GET", "/api/notifications/unread-count").length).toBeGreaterThan(1));
  });

  it("does not mark a read one again, and goes to the gig's details for other types", async () => {
    const { api, user } = renderBell({ count: 0, list: [note({ isRead: true })] });
    await user.click(await bell("Notifications"));
    await user.click(await screen.findByRole("menuitem", { name: /Gig Claimed/ }));
    expect(screen.getByTestId("location")).toHaveTextContent(/^\/\?tab=active&gigId=gig-1$/);
    expect(api.callsTo("PATCH", "/api/notifications/n-1/read")).toHaveLength(0);
  });
});

function MyGigsOnScreen() {
  const gigs = useQuery({ queryKey: ["/api/gigs", { participant: "me" }], queryFn: () => apiJson<unknown[]>("GET", "/api/gigs") });
  return <p>{gigs.data ? `${gigs.data.length} gigs` : "loading gigs"}</p>;
}

describe("a new notification", () => {
  it("reads the member's gigs and stats again when the unread count grows, and not when it stays or falls", async () => {
    let count = 0;
    const api = mockApi({
      "GET /api/notifications/unread-count": () => count,
      "GET /api/user/me": () => makeUser({ completedGigs: count }),
      "GET /api/gigs": () => [],
    });
    // Something that reads the member's gigs is on screen (the Active tab, say).
    const { queryClient } = renderWithApp(
      <>
        <NotificationsBell />
        <MyGigsOnScreen />
      </>,
      { user: makeUser() },
    );
    await waitFor(() => expect(api.callsTo("GET", "/api/notifications/unread-count")).toHaveLength(1));
    await waitFor(() => expect(api.callsTo("GET", "/api/gigs")).toHaveLength(1));
    const poll = () => queryClient.refetchQueries({ queryKey: notificationKeys.unreadCount() });

    await poll(); // the same count: nothing else is read
    expect(api.callsTo("GET", "/api/gigs")).toHaveLength(1);
    expect(api.callsTo("GET", "/api/user/me")).toHaveLength(0);

    count = 1; // the hirer approved: a notification for this member
    await poll();
    await waitFor(() => expect(api.callsTo("GET", "/api/gigs")).toHaveLength(2));
    await waitFor(() => expect(api.callsTo("GET", "/api/user/me")).toHaveLength(1));

    count = 0; // the member read it elsewhere
    await poll();
    expect(api.callsTo("GET", "/api/gigs")).toHaveLength(2);
  });
});

describe("notifications pushed over the inbox socket", () => {
  const inbox = () => FakeWebSocket.to("/api/notifications/socket");

  it("opens the member's inbox with their session beside the protocol", async () => {
    renderBell({ count: 0 });
    await waitFor(() => expect(inbox()).toHaveLength(1));
    expect(inbox()[0]!.protocols).toEqual([INBOX_PROTOCOL, "bearer.test-session-token"]);
  });

  it("opens no socket for a visitor", async () => {
    renderBell({ signedIn: false });
    await new Promise((r) => setTimeout(r, 50));
    expect(inbox()).toHaveLength(0);
  });

  it("opens no socket when the member has left the page before it was opened", async () => {
    renderBell({ count: 0 }).view.unmount();
    await new Promise((r) => setTimeout(r, 50));
    expect(inbox()).toHaveLength(0);
  });

  it("shows the pushed count, and a new notification's count with the member's gigs and stats read again", async () => {
    const api = mockApi({
      "GET /api/notifications/unread-count": () => 2,
      "GET /api/user/me": () => makeUser(),
      "GET /api/gigs": () => [],
    });
    renderWithApp(
      <>
        <NotificationsBell />
        <MyGigsOnScreen />
      </>,
      { user: makeUser() },
    );
    await waitFor(() => expect(inbox()).toHaveLength(1));
    await waitFor(() => expect(api.callsTo("GET", "/api/gigs")).toHaveLength(1));
    await waitFor(() => expect(api.callsTo("GET", "/api/notifications/unread-count")).toHaveLength(1));
    const socket = inbox()[0]!;
    socket.open();
    socket.receive({ type: "unread_count", count: 2 });
    expect(await screen.findByTestId("unread-badge")).toHaveTextContent("2");
    expect(api.callsTo("GET", "/api/gigs")).toHaveLength(1);
    socket.receive({ type: "notification", notification: note({ id: "n-9", title: "Work Approved" }), unreadCount: 3 });
    await waitFor(() => expect(screen.getByTestId("unread-badge")).toHaveTextContent("3"));
    await waitFor(() => expect(api.callsTo("GET", "/api/gigs")).toHaveLength(2));
    await waitFor(() => expect(api.callsTo("GET", "/api/user/me")).toHaveLength(1));
  });

  it("keeps a pushed count when an older read of the count answers after it", async () => {
    // The page's first read of the count is slow (answered 0, from before the claim); meanwhile the socket
    // pushes the claim's notification (1). The late 0 must not put the badge back to nothing.
    let answerFirstRead!: () => void;
    const firstRead = new Promise<void>((resolve) => (answerFirstRead = resolve));
    mockApi({
      "GET /api/notifications/unread-count": async () => {
        await firstRead;
        return 0;
      },
    });
    renderWithApp(<NotificationsBell />, { user: makeUser() });
    await waitFor(() => expect(inbox()).toHaveLength(1));
    const socket = inbox()[0]!;
    socket.open();
    socket.receive({ type: "notification", notification: note({ id: "n-9" }), unreadCount: 1 });
    expect(await screen.findByTestId("unread-badge")).toHaveTextContent("1");
    answerFirstRead();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId("unread-badge")).toHaveTextContent("1");
    expect(await screen.findByRole("button", { name: "Notifications, 1 unread" })).toBeInTheDocument();
  });

  it("tries a dropped socket again, and not one closed because the session ended", async () => {
    renderBell({ count: 0 });
    await waitFor(() => expect(inbox()).toHaveLength(1));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      inbox()[0]!.drop(1006);
      act(() => vi.advanceTimersByTime(INBOX_RECONNECT_MS));
      expect(inbox()).toHaveLength(2);
      inbox()[1]!.drop(1008);
      act(() => vi.advanceTimersByTime(INBOX_RECONNECT_MS * 3));
      expect(inbox()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
