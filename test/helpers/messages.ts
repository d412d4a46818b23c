import { beforeEach, expect } from "vitest";
import type { TestSandbox } from "./sandbox.js";

/** The default fixture's numbers and contacts. */
export const MAIN = "+14155550101"; // imessage, sms
export const SUPPORT = "+14155550102"; // whatsapp (cloud)
export const SALES = "+14155550103"; // imessage, sms, whatsapp (linked)
export const IPHONE = "+14155550191"; // iOS, iMessage, WhatsApp
export const ANDROID = "+14155550192"; // Android, no WhatsApp

/** Magic numbers (docs/simulated-world.md). */
export const MAGIC = {
  android: "+14155550170",
  unreachable: "+14155550171",
  noReadReceipts: "+14155550172",
  noIMessage: "+14155550173",
  noWhatsApp: "+14155550174",
} as const;

/** Wipes and re-seeds before each test, so tests of a file do not see each other's messages. */
export function resetBeforeEach(t: TestSandbox): void {
  beforeEach(async () => {
    await t.sandbox.control.reset();
  });
}

/** POST /v1/messages that must be accepted (202); returns the Message. */
export async function send(
  t: TestSandbox,
  body: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<any> {
  const res = await t.api("POST", "/v1/messages", {
    body: { from_handle: MAIN, to: IPHONE, text: "hi", ...body },
    headers,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.data;
}

/** The current Message. */
export async function message(t: TestSandbox, id: string): Promise<any> {
  const res = await t.api("GET", `/v1/messages/${id}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The status of a message now. */
export async function statusOf(t: TestSandbox, id: string): Promise<string> {
  return (await message(t, id)).status;
}

/** The event payloads emitted so far (optionally only those about one message), oldest first. */
export async function events(t: TestSandbox, messageId?: string): Promise<any[]> {
  const all: any[] = [];
  let after = 0;
  for (;;) {
    const res = await t.api("GET", `/sandbox/v1/events?after=${after}&limit=100`);
    all.push(...res.body.data);
    if (!res.body.has_more) break;
    after = res.body.data.at(-1).seq;
  }
  const payloads = all.map((event) => event.payload);
  return messageId ? payloads.filter((payload) => payload.message_id === messageId) : payloads;
}

/** The event types about one message, in order. */
export async function eventTypes(t: TestSandbox, messageId: string): Promise<string[]> {
  return (await events(t, messageId)).map((payload) => payload.type);
}

/** Switches a fault through the control API; it must succeed. */
export async function fault(t: TestSandbox, handle: string, body: Record<string, unknown>): Promise<any> {
  const res = await t.api("POST", `/sandbox/v1/numbers/${encodeURIComponent(handle)}/faults`, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** Sets a contact's profile through the control API. */
export async function setContact(t: TestSandbox, handle: string, body: Record<string, unknown>): Promise<any> {
  const res = await t.api("PATCH", `/sandbox/v1/contacts/${encodeURIComponent(handle)}`, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** A contact writes to one of the account's numbers; returns the inbound Message. */
export async function inbound(t: TestSandbox, body: Record<string, unknown>): Promise<any> {
  const res = await t.api("POST", "/sandbox/v1/simulate/inbound", {
    body: { from: IPHONE, to: MAIN, text: "hello", ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/**
 * Advances the clock step by step and records when the message's status changed, as offsets
 * in ms from the start: exact, because each advance runs the jobs due up to its target.
 */
export async function expectStatusAt(
  t: TestSandbox,
  id: string,
  at: number,
  status: string,
  since: number,
): Promise<void> {
  const now = t.sandbox.ctx.clock.now();
  const target = since + at;
  if (target > now) await t.advance(target - now);
  expect(await statusOf(t, id), `status at +${at} ms`).toBe(status);
}

/** A message delivered to an iPhone over iMessage (after the lifecycle ran). */
export async function deliveredIMessage(t: TestSandbox, body: Record<string, unknown> = {}): Promise<any> {
  await setContact(t, IPHONE, { read_receipts: false });
  const sent = await send(t, body);
  await t.advance(700);
  expect(await statusOf(t, sent.id)).toBe("delivered");
  return message(t, sent.id);
}

/** POST /v1/messages/:id/ACTION (react, edit, unsend) with `body`, answering the raw response. */
export const postAction = (t: TestSandbox, id: string, action: string, body?: unknown) =>
  t.api("POST", `/v1/messages/${id}/${action}`, { body });
