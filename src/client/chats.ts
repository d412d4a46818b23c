import type { ChatResource, CreateChatInput, Page } from "../contract/types.js";
import type { HttpClient } from "./http.js";
import { pageQuery, type PageOptions } from "./list-options.js";

const at = (id: string) => `/v1/chats/${encodeURIComponent(id)}`;

/** Conversations (spec 4.5): threads and groups. */
export function chatsClient(http: HttpClient) {
  const chat = async (method: string, path: string, body?: unknown) =>
    (await http.request<ChatResource>("messaging", method, path, { body })).data;
  return {
    /** One page of chats, newest activity first. */
    async list(options: PageOptions = {}): Promise<Page<ChatResource>> {
      const response = await http.request<ChatResource[]>("messaging", "GET", "/v1/chats", {
        query: pageQuery(options),
      });
      return { data: response.data, hasMore: response.hasMore ?? false };
    },
    /** GET /v1/chats/:id. */
    get: (id: string) => chat("GET", at(id)),
    /** POST /v1/chats: starts an iMessage group; `replayed` is true when an Idempotency-Key returned the original (200). */
    async create(
      input: CreateChatInput,
      options: { idempotencyKey?: string } = {},
    ): Promise<{ chat: ChatResource; replayed: boolean }> {
      const headers = options.idempotencyKey ? { "idempotency-key": options.idempotencyKey } : undefined;
      const response = await http.request<ChatResource>("messaging", "POST", "/v1/chats", { body: input, headers });
      return { chat: response.data, replayed: response.status === 200 };
    },
    /** PATCH /v1/chats/:id: renames an iMessage group (null removes the title). */
    rename: (id: string, title: string | null) => chat("PATCH", at(id), { title }),
    /** Adds a member to an iMessage group. */
    addParticipant: (id: string, handle: string) => chat("POST", `${at(id)}/participants`, { handle }),
    /** Removes a member from an iMessage group. */
    removeParticipant: (id: string, handle: string) =>
      chat("DELETE", `${at(id)}/participants/${encodeURIComponent(handle)}`),
    /** Marks the thread read: its contacts see read receipts. */
    read: (id: string) => chat("POST", `${at(id)}/read`),
    /** Shows (or with `false` hides) the account's typing bubble; it expires by itself. */
    typing: (id: string, typing = true) => chat("POST", `${at(id)}/typing`, { typing }),
  };
}
