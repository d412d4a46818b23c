import { expect } from "vitest";
import { IPHONE, MAIN } from "./messages.js";
import type { TestSandbox } from "./sandbox.js";

/** Contacts on iMessage with the default profile (fictional numbers). */
export const ALICE = "+14155550150";
export const BOB = "+14155550151";
export const CAROL = "+14155550152";

/** The magic number whose presence makes group naming fail (docs/conversations.md). */
export const NAMING_FAILS = "+14155550176";

/** POST /v1/chats that must be created (201); returns the Chat. */
export async function createGroup(
  t: TestSandbox,
  body: Record<string, unknown> = {},
  headers?: Record<string, string>,
): Promise<any> {
  const res = await t.api("POST", "/v1/chats", {
    body: { from_handle: MAIN, addresses: [ALICE, BOB], message: "Welcome!", ...body },
    headers,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** A contact starts a group (`simulate inbound --members`); returns the inbound Message of `to`. */
export async function groupInbound(t: TestSandbox, body: Record<string, unknown> = {}): Promise<any> {
  const res = await t.api("POST", "/sandbox/v1/simulate/inbound", {
    body: { from: IPHONE, to: MAIN, text: "hi all", members: [ALICE], ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** The current Chat. */
export async function chat(t: TestSandbox, id: string): Promise<any> {
  const res = await t.api("GET", `/v1/chats/${id}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Every chat of the account, newest activity first. */
export async function allChats(t: TestSandbox): Promise<any[]> {
  return (await t.api("GET", "/v1/chats?limit=100")).body.data;
}

/** Expects an error answer with this status and code; returns its message. */
export function expectError(res: { status: number; body: any }, status: number, code: string): string {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual({ error: code, message: expect.any(String), request_id: expect.stringMatching(/^req_/) });
  return res.body.message;
}

/** Sends into a group conversation as the account (202), answering the message. */
export async function sendInto(
  t: TestSandbox,
  conversationId: string,
  body: Record<string, unknown> = {},
): Promise<any> {
  const res = await t.api("POST", "/v1/messages", {
    body: { conversation_id: conversationId, text: "to the group", ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.data;
}
