import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ChatMessageView } from "../../../../domain/chat-protocol";
import { makeUser } from "../../test/factories";
import { mockApi } from "../../test/mock-api";
import { FakeWebSocket } from "../../test/fake-websocket";
import { findToast, renderWithApp } from "../../test/render";
import { ChatModal, chatRoleOf } from "./chat-modal";

const GIG = {
  id: "gig-1",
  title: "Design a logo",
  description: "A clean logo for a bitcoin meetup.",
  category: "Design",
  gigType: "job_request",
  status: "in_progress",
  payment: 10_000,
  timeframe: 7,
  createdAt: "2026-11-01T00:00:00.000Z",
  hirerId: "hirer-1",
  workerId: "worker-1",
};

const me = makeUser({ id: "worker-1", username: "npub1worker", displayName: "Wendy Worker" });

let counter = 0;
function message(overrides: Partial<ChatMessageView> = {}): ChatMessageView {
  counter += 1;
  return {
    id: `m-${counter}`,
    gigId: GIG.id,
    senderId: "hirer-1",
    senderType: "user",
    sender: { username: "npub1hirer", displayName: "Hank Hirer", profilePicture: null },
    message: `message ${counter}`,
    createdAt: new Date(Date.UTC(2026, 10, 1, 12, 0, counter)).toISOString(),
    fileAttachment: null,
    ...overrides,
  };
}

const ADMIN = { senderId: "ADMIN", senderType: "admin" as const, sender: { username: "admin", displayName: "Platform Admin", profilePicture: null } };

function renderChat(history: ChatMessageView[] = []) {
  const api = mockApi({
    [`GET /api/gigs/${GIG.id}`]: () => GIG,
    [`GET /api/gigs/${GIG.id}/messages`]: () => history,
  });
  const onOpenChange = vi.fn();
  const result = renderWithApp(<ChatModal gigId={GIG.id} open onOpenChange={onOpenChange} />, { user: me });
  return { api, onOpenChange, ...result };
}

const socket = (i = FakeWebSocket.instances.length - 1) => FakeWebSocket.instances[i]!;

/** Opens the latest socket and walks it through auth and join, checking what the client sends. */
function joinLatest() {
  const ws = socket();
  ws.open();
  expect(ws.sent.at(-1)).toEqual({ type: "auth", sessionToken: "test-session-token" });
  ws.receive({ type: "auth_success" });
  expect(ws.sent.at(-1)).toEqual({ type: "join_gig", gigId: GIG.id });
  ws.receive({ type: "join_success", gigId: GIG.id });
  return ws;
}

const messageLog = () => within(screen.getByRole("log", { name: "Messages" }));

beforeEach(() => {
  FakeWebSocket.instances = [];
  vi.stubGlobal("WebSocket", FakeWebSocket);
});

afterEach(() => {
  vi.useRealTimers();
});

describe("chatRoleOf", () => {
  const gig = { hirerId: "h", workerId: "w" };
  it("names the hirer, the worker, you and the platform admin", () => {
    expect(chatRoleOf({ senderId: "h", senderType: "user" }, gig, "w")).toBe("Hirer");
    expect(chatRoleOf({ senderId: "w", senderType: "user" }, gig, "h")).toBe("Worker");
    expect(chatRoleOf({ senderId: "w", senderType: "user" }, gig, "w")).toBe("You");
    expect(chatRoleOf({ senderId: "ADMIN", senderType: "user" }, gig, "w")).toBe("Platform Admin");
    expect(chatRoleOf({ senderId: "", senderType: "user" }, gig, "w")).toBe("Platform Admin");
    expect(chatRoleOf({ senderId: null, senderType: "admin" }, gig, "w")).toBe("Platform Admin");
    expect(chatRoleOf({ senderId: "x", senderType: "user" }, gig, "w")).toBeNull();
  });
});

describe("ChatModal", () => {
  it("shows the history with each sender's role and profile link, the monitoring notice and the connection", async () => {
    renderChat([
      message({ message: "Hi, how is it going?" }),
      message({ senderId: "worker-1", sender: { username: "npub1worker", displayName: "Wendy Worker", profilePicture: null }, message: "Nearly there" }),
      message({ ...ADMIN, message: "Reminder: keep payments on the platform." }),
      message({ ...ADMIN, senderId: "", message: "Empty sender id is the admin too." }),
    ]);
    expect(await screen.findByText("Hi, how is it going?")).toBeInTheDocument();
    const hirerMessage = screen.getByRole("article", { name: "Message from Hank Hirer" });
    expect(within(hirerMessage).getByText("Hirer")).toBeInTheDocument();
    expect(within(hirerMessage).getByRole("link", { name: "Hank Hirer" })).toHaveAttribute("href", "/user/npub1hirer");
    const mine = screen.getByRole("article", { name: "Message from Wendy Worker" });
    expect(within(mine).getByText("You")).toBeInTheDocument();
    const adminMessages = screen.getAllByRole("article", { name: "Message from Platform Admin" });
    expect(adminMessages).toHaveLength(2);
    for (const m of adminMessages) expect(within(m).getAllByText("Platform Admin").length).toBeGreaterThan(0);
    expect(within(adminMessages[0]!).queryByRole("link")).not.toBeInTheDocument();

    expect(screen.getByText(/monitored by the platform admin/)).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Connecting...");
    expect(socket().url).toBe(`ws://${window.location.host}/ws?gigId=${GIG.id}`);
    joinLatest();
    expect(screen.getByRole("status")).toHaveTextContent("Connected");
    expect(await screen.findByRole("heading", { name: "Chat: Design a logo" })).toBeInTheDocument();
  });

  it("adds live messages once each, even when history and the socket both have them", async () => {
    const first = message({ message: "from history" });
    renderChat([first]);
    await screen.findByText("from history");
    const ws = joinLatest();
    ws.receive({ type: "new_message", message: first });
    const live = message({ message: "live one" });
    ws.receive({ type: "new_message", message: live });
    ws.receive({ type: "new_message", message: live });
    ws.receive({ type: "chat_message", nonsense: true }); // not a server frame: ignored
    expect(messageLog().getAllByText("from history")).toHaveLength(1);
    expect(messageLog().getAllByText("live one")).toHaveLength(1);
    expect(messageLog().getAllByRole("article")).toHaveLength(2);
  });

  it("sends the trimmed text on Enter, keeps Shift+Enter as a new line, and only logs while disconnected", async () => {
    renderChat();
    const user = userEvent.setup();
    const input = await screen.findByRole("textbox", { name: "Message" });
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);

    await user.type(input, "  too early  {Enter}");
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/not connected/));
    expect(input).toHaveValue("  too early  ");

    const ws = joinLatest();
    await user.clear(input);
    await user.type(input, "line one{Shift>}{Enter}{/Shift}line two");
    expect(ws.sent.filter((f) => f.type === "chat_message")).toHaveLength(0);
    await user.type(input, "  {Enter}");
    expect(ws.sent.at(-1)).toEqual({ type: "chat_message", gigId: GIG.id, message: "line one\nline two" });
    expect(input).toHaveValue("");

    await user.type(input, "   {Enter}");
    expect(ws.sent.filter((f) => f.type === "chat_message")).toHaveLength(1);
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
  });

  it("shows 'Failed to Send Message' when the server refuses a message", async () => {
    renderChat();
    await screen.findByRole("textbox", { name: "Message" });
    const ws = joinLatest();
    ws.receive({ type: "error", message: "Message must be at most 5,000 characters" });
    expect(await findToast("Failed to Send Message")).toBeInTheDocument();
    expect(await findToast("Message must be at most 5,000 characters")).toBeInTheDocument();
  });

  it("reconnects 3 s after the connection closes, and reloads the history after joining again", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = renderChat([message({ message: "old" })]);
    await screen.findByText("old");
    joinLatest();
    expect(FakeWebSocket.instances).toHaveLength(1);

    socket().drop();
    expect(screen.getByRole("status")).toHaveTextContent("Disconnected");
    act(() => vi.advanceTimersByTime(2_999));
    expect(FakeWebSocket.instances).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(FakeWebSocket.instances).toHaveLength(2);

    const before = api.callsTo("GET", `/api/gigs/${GIG.id}/messages`).length;
    joinLatest();
    expect(screen.getByRole("status")).toHaveTextContent("Connected");
    await waitFor(() => expect(api.callsTo("GET", `/api/gigs/${GIG.id}/messages`).length).toBe(before + 1));
  });

  it("stops reconnecting once closed", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi({ [`GET /api/gigs/${GIG.id}`]: () => GIG, [`GET /api/gigs/${GIG.id}/messages`]: () => [] });
    function Harness() {
      const [open, setOpen] = useState(true);
      return <ChatModal gigId={GIG.id} open={open} onOpenChange={setOpen} />;
    }
    renderWithApp(<Harness />, { user: me });
    await screen.findByRole("textbox", { name: "Message" });
    joinLatest();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(socket().readyState).toBe(FakeWebSocket.CLOSED);
    act(() => vi.advanceTimersByTime(10_000));
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it("asks for the history again when reopened: what was said live last time is not lost", async () => {
    let history: ChatMessageView[] = [message({ message: "before" })];
    const api = mockApi({ [`GET /api/gigs/${GIG.id}`]: () => GIG, [`GET /api/gigs/${GIG.id}/messages`]: () => history });
    function Harness() {
      const [open, setOpen] = useState(true);
      return (
        <>
          <button onClick={() => setOpen(true)}>reopen</button>
          <ChatModal gigId={GIG.id} open={open} onOpenChange={setOpen} />
        </>
      );
    }
    renderWithApp(<Harness />, { user: me });
    await screen.findByText("before");
    const ws = joinLatest();
    const live = message({ message: "said live" });
    ws.receive({ type: "new_message", message: live });
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    history = [...history, live, message({ message: "sent while closed" })];
    fireEvent.click(screen.getByRole("button", { name: "reopen" }));
    expect(await screen.findByText("sent while closed")).toBeInTheDocument();
    expect(screen.getByText("said live")).toBeInTheDocument();
    expect(api.callsTo("GET", `/api/gigs/${GIG.id}/messages`)).toHaveLength(2);
  });

  it("says why and stops when the server refuses the join, and Send stays off", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderChat();
    await screen.findByRole("textbox", { name: "Message" });
    const ws = socket();
    ws.open();
    ws.receive({ type: "auth_success" });
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    ws.receive({ type: "error", message: "Only the gig's hirer and worker can chat here" });
    expect(screen.getByRole("status")).toHaveTextContent("Not connected");
    expect(screen.getByText("Only the gig's hirer and worker can chat here")).toBeInTheDocument();
    expect(screen.queryByText("No messages yet. Say hello!")).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(10_000));
    expect(FakeWebSocket.instances).toHaveLength(1);
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).type(screen.getByRole("textbox", { name: "Message" }), "hello");
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
  });

  it("asks a signed-out visitor to sign in instead of connecting", async () => {
    mockApi({ [`GET /api/gigs/${GIG.id}`]: () => GIG });
    renderWithApp(<ChatModal gigId={GIG.id} open onOpenChange={() => {}} />);
    expect(await screen.findByText("Please log in to chat.")).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Not connected");
    expect(FakeWebSocket.instances).toHaveLength(0);
  });
});
