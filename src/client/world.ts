import type {
  ChatRemoteView,
  ChatResource,
  ContactTraits,
  ContactView,
  FaultName,
  InboundInput,
  MessageResource,
  NumberFaults,
  ReactionView,
  SimulateEditInput,
  SimulateParticipantsInput,
  SimulateReactionInput,
  SimulateRenameInput,
  SimulateTypingInput,
} from "../contract/types.js";
import type { HttpClient } from "./http.js";

/** Contacts of the simulated world (control API). */
export function contactsClient(http: HttpClient) {
  const path = (handle: string) => `/sandbox/v1/contacts/${encodeURIComponent(handle)}`;
  return {
    /** Contacts on record, then the magic numbers. */
    list: async () => (await http.request<ContactView[]>("messaging", "GET", "/sandbox/v1/contacts")).data,
    /** The profile routing uses for a handle. */
    get: async (handle: string) => (await http.request<ContactView>("messaging", "GET", path(handle))).data,
    /** Sets part of a contact's profile. */
    set: async (handle: string, traits: Partial<ContactTraits>) =>
      (await http.request<ContactView>("messaging", "PATCH", path(handle), { body: traits })).data,
  };
}

/** The simulate actions and per-number faults (control API). */
export function simulateClient(http: HttpClient) {
  const post = async <T>(path: string, body?: unknown) =>
    (await http.request<T>("messaging", "POST", path, { body })).data;
  const message = (id: string, what: string, body?: unknown) =>
    post<MessageResource>(`/sandbox/v1/messages/${encodeURIComponent(id)}/${what}`, body);
  const faultsPath = (handle: string) => `/sandbox/v1/numbers/${encodeURIComponent(handle)}/faults`;
  return {
    /** A contact sends a message (one-to-one, or into a group with `members` or `group`); returns the inbound Message. */
    inbound: (input: InboundInput) => post<MessageResource>("/sandbox/v1/simulate/inbound", input),
    /** Moves an outbound message forward to delivered. */
    delivered: (id: string) => message(id, "delivered"),
    /** Moves an outbound message forward to read. */
    read: (id: string) => message(id, "read"),
    /** Fails a queued or sent message. */
    fail: (id: string, error?: string) => message(id, "fail", error === undefined ? {} : { error }),
    /** A contact reacts to one of the account's messages. */
    reaction: (input: SimulateReactionInput) => post<MessageResource>("/sandbox/v1/simulate/reaction", input),
    /** A contact starts (or stops) typing, in a one-to-one thread (`to`) or any thread (`conversation_id`). */
    typing: (input: SimulateTypingInput) => post<ChatResource>("/sandbox/v1/simulate/typing", input),
    /** A member renames a group. */
    rename: (input: SimulateRenameInput) => post<ChatResource>("/sandbox/v1/simulate/rename", input),
    /** A member adds someone to a group or removes someone. */
    participants: (input: SimulateParticipantsInput) => post<ChatResource>("/sandbox/v1/simulate/participants", input),
    /** What the other members' phones show of the account in a thread: its typing bubble, its read mark. */
    remoteView: async (id: string) =>
      (await http.request<ChatRemoteView>("messaging", "GET", `/sandbox/v1/chats/${encodeURIComponent(id)}/remote`))
        .data,
    /** The reactions standing on a thread's messages, each person's once, in the order they landed. */
    reactions: async (conversationId: string) =>
      (
        await http.request<ReactionView[]>("messaging", "GET", "/sandbox/v1/reactions", {
          query: { conversation_id: conversationId },
        })
      ).data,
    /** A contact edits their message. */
    edit: (input: SimulateEditInput) => post<MessageResource>("/sandbox/v1/simulate/edit", input),
    /** Switches a fault of one of the account's numbers. */
    fault: (handle: string, fault: FaultName, options: { count?: number; off?: boolean } = {}) =>
      post<NumberFaults>(faultsPath(handle), { fault, ...options }),
    /** A number's faults. */
    faults: async (handle: string) => (await http.request<NumberFaults>("messaging", "GET", faultsPath(handle))).data,
  };
}
