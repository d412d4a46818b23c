import type { HandleAvailability, MessageResource, Page, SendMessageInput } from "../contract/types.js";
import type { HttpClient } from "./http.js";
import { pageQuery, type MessageListOptions } from "./list-options.js";

const path = (id: string) => `/v1/messages/${encodeURIComponent(id)}`;

/** Messages (spec 4.3). */
export function messagesClient(http: HttpClient) {
  const list = async (options: MessageListOptions = {}): Promise<Page<MessageResource>> => {
    const response = await http.request<MessageResource[]>("messaging", "GET", "/v1/messages", {
      query: { ...pageQuery(options), conversation_id: options.conversationId ?? options.conversation_id },
    });
    return { data: response.data, hasMore: response.hasMore ?? false };
  };
  const action = async (id: string, name: string, body?: unknown) =>
    (await http.request<MessageResource>("messaging", "POST", `${path(id)}/${name}`, { body })).data;
  return {
    /** POST /v1/messages; `replayed` is true when an Idempotency-Key returned the original (200). */
    async send(
      input: SendMessageInput,
      options: { idempotencyKey?: string } = {},
    ): Promise<{ message: MessageResource; replayed: boolean }> {
      const headers = options.idempotencyKey ? { "idempotency-key": options.idempotencyKey } : undefined;
      const response = await http.request<MessageResource>("messaging", "POST", "/v1/messages", {
        body: input,
        headers,
      });
      return { message: response.data, replayed: response.status === 200 };
    },
    /** One page, newest first. */
    list,
    /** Every message, newest first, following `before` from page to page. */
    async *all(options: Omit<MessageListOptions, "before"> = {}): AsyncGenerator<MessageResource> {
      let before: string | undefined;
      for (;;) {
        const page = await list({ ...options, before });
        yield* page.data;
        if (!page.hasMore || page.data.length === 0) return;
        before = page.data.at(-1)?.created_at;
      }
    },
    /** GET /v1/messages/:id. */
    get: async (id: string) => (await http.request<MessageResource>("messaging", "GET", path(id))).data,
    /** Reacts (or removes a reaction with `remove`). */
    react: (id: string, reaction: string, remove?: boolean) =>
      action(id, "react", remove === undefined ? { reaction } : { reaction, remove }),
    /** Edits an iMessage; the edit lands asynchronously. */
    edit: (id: string, text: string) => action(id, "edit", { text }),
    /** Unsends an iMessage; lands asynchronously. */
    unsend: (id: string) => action(id, "unsend"),
    /** Queues a failed message again. */
    retry: (id: string) => action(id, "retry"),
    /** GET /v1/handles/availability. */
    availability: async (handle: string) =>
      (await http.request<HandleAvailability>("messaging", "GET", "/v1/handles/availability", { query: { handle } }))
        .data,
  };
}
