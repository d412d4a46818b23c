import type {
  AccountView,
  ChallengeTextInput,
  AttachmentResource,
  ChatRemoteView,
  ChatResource,
  ClockView,
  ContactTraits,
  ContactView,
  Delivery,
  EventView,
  FaultName,
  InboundInput,
  MessageResource,
  NumberFaults,
  NumberResource,
  OtpChallengeView,
  OtpText,
  OtpTextResult,
  ReactionView,
  SendMessageInput,
  WebhookResource,
} from "../contract/types.js";

/** An error answer of the sandbox, in the spec's shape `{ error, message, request_id }`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A page of a list: `{ data, has_more }`. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
}

type Query = Record<string, string | number | undefined>;

const withQuery = (path: string, query: Query = {}) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
};

const enc = encodeURIComponent;

/**
 * The page's client of the sandbox: `/v1` and the control API `/sandbox/v1` of the messaging
 * host it is served from, with one account's key.
 */
export class Api {
  constructor(readonly key: string) {}

  /** One request; unwraps `{ data }`, throws ApiError on an error answer. */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const page = await this.requestPage<T>(method, path, body);
    return page.data as T;
  }

  private async requestPage<T>(method: string, path: string, body?: unknown): Promise<{ data: T; has_more?: boolean }> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const response = await fetch(path, { method, headers, body: payload });
    const json = (await response.json().catch(() => ({}))) as {
      data?: T;
      has_more?: boolean;
      error?: string;
      message?: string;
    };
    if (!response.ok)
      throw new ApiError(
        response.status,
        json.error ?? "error",
        json.message ?? `${method} ${path} answered ${response.status}`,
      );
    return json as { data: T; has_more?: boolean };
  }

  private async list<T>(path: string, query?: Query): Promise<Page<T>> {
    const page = await this.requestPage<T[]>("GET", withQuery(path, query));
    return { data: page.data, has_more: page.has_more ?? false };
  }

  // --- The sandbox ---
  accounts = () => this.request<AccountView[]>("GET", "/sandbox/v1/accounts");
  clock = () => this.request<ClockView>("GET", "/sandbox/v1/clock");
  advance = (duration: string) => this.request<ClockView>("POST", "/sandbox/v1/clock/advance", { duration });
  events = (query: Query) => this.list<EventView>("/sandbox/v1/events", query);
  event = (id: string) => this.request<EventView>("GET", `/sandbox/v1/events/${enc(id)}`);

  // --- Numbers, threads, messages (/v1) ---
  numbers = () => this.request<NumberResource[]>("GET", "/v1/numbers");
  chats = (query: Query = {}) => this.list<ChatResource>("/v1/chats", query);
  chat = (id: string) => this.request<ChatResource>("GET", `/v1/chats/${enc(id)}`);
  messages = (query: Query) => this.list<MessageResource>("/v1/messages", query);
  send = (input: SendMessageInput) => this.request<MessageResource>("POST", "/v1/messages", input);
  upload = (files: File[]) => {
    const form = new FormData();
    for (const file of files) form.append("file", file, file.name);
    return this.request<AttachmentResource[]>("POST", "/v1/attachments", form);
  };
  reactions = (conversationId: string) =>
    this.request<ReactionView[]>("GET", withQuery("/sandbox/v1/reactions", { conversation_id: conversationId }));

  // --- The other side (control API) ---
  inbound = (input: InboundInput) => this.request<MessageResource>("POST", "/sandbox/v1/simulate/inbound", input);
  react = (input: { message_id: string; from: string; reaction: string; remove?: boolean }) =>
    this.request<MessageResource>("POST", "/sandbox/v1/simulate/reaction", input);
  typing = (input: { from: string; to?: string; conversation_id?: string; typing: boolean }) =>
    this.request<ChatResource>("POST", "/sandbox/v1/simulate/typing", input);
  renameAsContact = (conversationId: string, from: string, title: string | null) =>
    this.request<ChatResource>("POST", "/sandbox/v1/simulate/rename", { conversation_id: conversationId, from, title });
  /** What the contacts' phones show of the account in a thread: its typing bubble, when it last read. */
  remote = (conversationId: string) =>
    this.request<ChatRemoteView>("GET", `/sandbox/v1/chats/${enc(conversationId)}/remote`);
  /** The business types (or stops) and reads, as an app does (POST /v1/chats/:id/typing, /read). */
  businessTyping = (conversationId: string, typing: boolean) =>
    this.request<ChatResource>("POST", `/v1/chats/${enc(conversationId)}/typing`, { typing });
  businessRead = (conversationId: string) =>
    this.request<ChatResource>("POST", `/v1/chats/${enc(conversationId)}/read`);
  createGroup = (input: { from_handle: string; addresses: string[]; message: string; title?: string }) =>
    this.request<ChatResource>("POST", "/v1/chats", input);
  editAsContact = (messageId: string, text: string) =>
    this.request<MessageResource>("POST", "/sandbox/v1/simulate/edit", { message_id: messageId, text });
  forward = (id: string, to: "delivered" | "read") =>
    this.request<MessageResource>("POST", `/sandbox/v1/messages/${enc(id)}/${to}`);
  fail = (id: string, error?: string) =>
    this.request<MessageResource>("POST", `/sandbox/v1/messages/${enc(id)}/fail`, error ? { error } : {});
  contact = (handle: string) => this.request<ContactView>("GET", `/sandbox/v1/contacts/${enc(handle)}`);
  setContact = (handle: string, traits: Partial<ContactTraits>) =>
    this.request<ContactView>("PATCH", `/sandbox/v1/contacts/${enc(handle)}`, traits);
  faults = (handle: string) => this.request<NumberFaults>("GET", `/sandbox/v1/numbers/${enc(handle)}/faults`);
  setFault = (handle: string, fault: FaultName, options: { count?: number; off?: boolean } = {}) =>
    this.request<NumberFaults>("POST", `/sandbox/v1/numbers/${enc(handle)}/faults`, { fault, ...options });

  // --- OTP (the OTP control routes, served on this host too) ---
  otpChallenges = () => this.request<OtpChallengeView[]>("GET", "/sandbox/v1/otp/challenges?limit=100");
  otpTexts = (phone: string) => this.list<OtpText>("/sandbox/v1/otp/texts", { phone, limit: 100 });
  textChallenge = (id: string, input: ChallengeTextInput) =>
    this.request<OtpTextResult>("POST", `/sandbox/v1/otp/challenges/${enc(id)}/texts`, input);

  // --- Webhooks and deliveries ---
  webhooks = () => this.list<WebhookResource>("/v1/webhooks", { limit: 100 });
  deliveries = (query: Query) => this.list<Delivery>("/sandbox/v1/deliveries", query);
  delivery = (id: string) => this.request<Delivery>("GET", `/sandbox/v1/deliveries/${enc(id)}`);
  resend = (id: string) => this.request<Delivery>("POST", `/sandbox/v1/deliveries/${enc(id)}/resend`);
}
