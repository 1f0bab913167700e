// The /ws chat protocol (SPEC.md §7 Real-time chat): one set of frames shared by the GigRoom and the
// web client, each side parsing what it receives. Client → server: auth, join_gig, chat_message.
// Server → client: auth_success, join_success, new_message, error.
import { z } from "./zod";
import { attachmentRefSchema } from "./file-schemas";

export const CHAT_MESSAGE_MAX_LENGTH = 5000;
/** The senderId the platform admin's messages carry (SPEC.md §2: ADMIN or empty shows Platform Admin). */
export const ADMIN_SENDER_ID = "ADMIN";
/** Wait before reconnecting after a close (SPEC.md §9). */
export const CHAT_RECONNECT_MS = 3000;

/** A chat message's text: trimmed, non-empty, at most 5,000 characters. */
export const chatMessageText = z
  .string({ error: "Message must be text" })
  .trim()
  .min(1, "Message cannot be empty")
  .max(CHAT_MESSAGE_MAX_LENGTH, "Message must be at most 5,000 characters");

const token = z.string().min(1).max(512);
const gigId = z.string().min(1, "gigId is required").max(64, "gigId is too long");

export const clientFrameSchema = z.discriminatedUnion("type", [
  z
    .object({ type: z.literal("auth"), sessionToken: token.optional(), adminToken: token.optional() })
    .refine((f) => (f.sessionToken === undefined) !== (f.adminToken === undefined), "auth needs exactly one of sessionToken or adminToken"),
  z.object({ type: z.literal("join_gig"), gigId }),
  z.object({
    type: z.literal("chat_message"),
    gigId,
    // Checked (trim, length) by the room so that a bad text gets its own message.
    message: z.string({ error: "message must be text" }).max(CHAT_MESSAGE_MAX_LENGTH * 4, "Message must be at most 5,000 characters"),
    fileAttachment: attachmentRefSchema.nullish(),
  }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

const attachmentView = z.object({ id: z.string(), url: z.string(), filename: z.string(), fileSize: z.number(), mimeType: z.string() });

export const chatMessageViewSchema = z.object({
  id: z.string(),
  gigId: z.string(),
  /** The member's id, or ADMIN for the platform admin. */
  senderId: z.string().nullable(),
  senderType: z.enum(["user", "admin"]),
  sender: z.object({ username: z.string().nullable(), displayName: z.string().nullable(), profilePicture: z.string().nullable() }),
  message: z.string(),
  createdAt: z.string(),
  fileAttachment: attachmentView.nullable(),
});
export type ChatMessageView = z.infer<typeof chatMessageViewSchema>;

export const serverFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("auth_success") }),
  z.object({ type: z.literal("join_success"), gigId: z.string() }),
  z.object({ type: z.literal("new_message"), message: chatMessageViewSchema }),
  z.object({ type: z.literal("error"), message: z.string() }),
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;

/** Reads a frame's text as JSON; null when it is not JSON. */
export function frameJson(data: string | ArrayBuffer): unknown {
  const text = typeof data === "string" ? data : new TextDecoder().decode(data);
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
