import type { Channel } from "../../contract/common.js";
import { invalidRequest } from "../../lib/app-error.js";
import { requireHandle } from "../../lib/handle-input.js";
import {
  accountNumbersAmong,
  assertMember,
  assertStillMember,
  conversationForField,
  conversationOfNumber,
  createGroup,
  GROUP_KINDS,
  joinRefusal,
  requireGroup,
  touchThread,
  type Group,
  type GroupKind,
} from "../conversations/index.js";
import { nextListTime, type DomainContext } from "../core/index.js";
import { recordInbound, toMessage, type ArrivalMedia, type MessageResource } from "../messages/index.js";
import { numberByHandle, type AccountNumber } from "../world/index.js";
import { accountNumberOf } from "./account-number.js";

/** What a group inbound needs from the body. */
interface GroupInbound {
  text?: string;
  channel?: Channel;
  to?: string;
  media?: ArrivalMedia;
}

/**
 * The kind of a group a contact starts: the channel asked for, else as for one-to-one messages:
 * iMessage when the number serves it and every member is on it, else a group MMS thread (any
 * non-iMessage member makes one for all, spec 4.5), else WhatsApp on a WhatsApp-only number.
 */
function kindOfNewGroup(
  ctx: DomainContext,
  accountId: string,
  number: AccountNumber,
  handles: readonly string[],
  channel?: Channel,
): GroupKind {
  if (channel) return channel === "sms" ? "mms" : channel;
  const allOnIMessage = handles.every((handle) => joinRefusal(ctx, accountId, "imessage", handle) === undefined);
  if (number.channels.includes("imessage") && allOnIMessage) return "imessage";
  if (number.channels.includes("sms")) return "mms";
  return number.channels.includes("whatsapp") ? "whatsapp" : "imessage";
}

/** 400 naming `field` when the sender is one of the account's numbers: the account writes through POST /v1/messages. */
function assertContact(ctx: DomainContext, accountId: string, handle: string, field: string): void {
  if (numberByHandle(ctx, handle)?.accountId === accountId) {
    throw invalidRequest(
      `${field}: ${handle} is one of the account's numbers; it writes into groups with POST /v1/messages`,
    );
  }
}

/**
 * A contact's message reaches the group: every member number of the account records its own copy
 * in its own conversation, each firing message.received (spec 4.5). The first copy claims the
 * uploads; the others get copies of its attachments. Returns the copy of `target`.
 */
function deliverToMemberNumbers(
  ctx: DomainContext,
  group: Group,
  from: string,
  body: GroupInbound,
  target: string,
): MessageResource {
  const channel = GROUP_KINDS[group.kind].channel;
  let originId: string | undefined;
  let answer: MessageResource | undefined;
  for (const number of accountNumbersAmong(ctx, group.accountId, group.members)) {
    const createdAt = nextListTime(ctx, "messages", group.accountId);
    const conversation = touchThread(ctx, conversationOfNumber(ctx, group, number.handle, createdAt), createdAt);
    const media: ArrivalMedia | undefined =
      originId && body.media ? { copyOf: originId, voiceMemo: body.media.voiceMemo === true } : body.media;
    const copy = recordInbound(ctx, {
      conversation,
      from,
      channel,
      text: body.text ?? null,
      createdAt,
      group: { id: group.id, originId },
      media,
    });
    originId ??= copy.id;
    if (number.handle === target) answer = toMessage(ctx, copy);
  }
  if (!answer) throw new Error(`${target} received no copy of the group message`);
  return answer;
}

/**
 * `simulate inbound --members H,H…`: a contact starts a new group
 * with `to` and every handle of `members`; the account's numbers among them get the message too,
 * each in its own conversation. Answers `to`'s copy.
 */
export function inboundToNewGroup(
  ctx: DomainContext,
  accountId: string,
  from: string,
  number: AccountNumber,
  memberInputs: readonly string[],
  body: GroupInbound,
): MessageResource {
  assertContact(ctx, accountId, from, "from");
  const members = memberInputs.map((input, i) => requireHandle(input, `members.${i}`));
  const seen = new Set([from, number.handle]);
  members.forEach((handle, i) => {
    if (seen.has(handle))
      throw invalidRequest(`members.${i}: ${handle} is listed twice (members lists everyone but from and to)`);
    seen.add(handle);
  });
  const kind = kindOfNewGroup(ctx, accountId, number, [from, ...members], body.channel);
  const { channel } = GROUP_KINDS[kind];
  if (!number.channels.includes(channel)) throw invalidRequest(`channel: ${number.handle} does not serve ${channel}`);
  for (const [handle, field] of [[from, "from"], ...members.map((handle, i) => [handle, `members.${i}`])] as [
    string,
    string,
  ][]) {
    const refusal = joinRefusal(ctx, accountId, kind, handle);
    if (refusal) throw invalidRequest(`${field}: ${refusal}`);
  }
  return ctx.db.transaction(() => {
    const group = createGroup(ctx, accountId, kind, [from, number.handle, ...members], null);
    return deliverToMemberNumbers(ctx, group, from, body, number.handle);
  });
}

/**
 * `simulate inbound --group ID`: a member writes into an existing group
 * (ID is one of its conversations). Answers the copy of `to` when given, else of that conversation.
 */
export function inboundToGroup(
  ctx: DomainContext,
  accountId: string,
  from: string,
  groupId: string,
  body: GroupInbound,
): MessageResource {
  const conversation = conversationForField(ctx, accountId, groupId, "group");
  if (!conversation.is_group)
    throw invalidRequest(`group: ${groupId} is a one-to-one thread; write to it with to alone`);
  const group = requireGroup(ctx, conversation);
  assertContact(ctx, accountId, from, "from");
  assertMember(group, from, "from");
  const { channel } = GROUP_KINDS[group.kind];
  if (body.channel !== undefined && body.channel !== channel)
    throw invalidRequest(`channel: this group's messages go by ${channel}`);
  let target = conversation.from_handle;
  if (body.to !== undefined) {
    target = accountNumberOf(ctx, accountId, body.to).handle;
    assertMember(group, target, "to");
  } else {
    assertStillMember(group, conversation);
  }
  return ctx.db.transaction(() => deliverToMemberNumbers(ctx, group, from, body, target));
}
