import type { JsonObject } from "../../contract/common.js";
import { simulateParticipantsBody, simulateRenameBody } from "../../contract/world.js";
import { AppError, invalidRequest, invalidState } from "../../lib/app-error.js";
import { requireHandle } from "../../lib/handle-input.js";
import { parseInput } from "../../lib/validation.js";
import {
  addGroupMember,
  assertMember,
  chatNow,
  conversationForField,
  GROUP_KINDS,
  removeGroupMember,
  renameGroup,
  requireGroup,
  type ChatResource,
  type Group,
} from "../conversations/index.js";
import type { DomainContext } from "../core/index.js";
import { numberByHandle } from "../world/index.js";

const isAccountNumber = (ctx: DomainContext, group: Group, handle: string) =>
  numberByHandle(ctx, handle)?.accountId === group.accountId;

/**
 * The group a contact changes: iMessage and WhatsApp groups (a WhatsApp group's members rename it
 * and change its members on their phones, though the API cannot). 409 not_a_group on a one-to-one
 * thread, 409 invalid_state on a group MMS thread; `from` must be a member and a contact.
 */
function groupChangedBy(ctx: DomainContext, accountId: string, conversationId: string, fromInput: string | undefined) {
  const conversation = conversationForField(ctx, accountId, conversationId, "conversation_id");
  if (!conversation.is_group) throw new AppError("not_a_group", 409, "This is a one-to-one thread, not a group");
  const group = requireGroup(ctx, conversation);
  if (!GROUP_KINDS[group.kind].contactChanges)
    throw invalidState("This is a group MMS thread: it has no name and its members are fixed");
  const from =
    fromInput === undefined
      ? group.members.find((handle) => !isAccountNumber(ctx, group, handle))
      : requireHandle(fromInput, "from");
  if (from === undefined) throw invalidRequest("from: required: every member is one of the account's numbers");
  assertMember(group, from, "from");
  if (isAccountNumber(ctx, group, from))
    throw invalidRequest(
      `from: ${from} is one of the account's numbers; change the group with PATCH /v1/chats/:id or its participants routes`,
    );
  return { conversation, group, from };
}

/** `simulate rename ID --title T [--from H]`: a member renames the group; conversation.renamed in every member number's conversation. */
export function simulateRename(ctx: DomainContext, accountId: string, input: JsonObject): ChatResource {
  const body = parseInput(simulateRenameBody, input);
  const { conversation, group, from } = groupChangedBy(ctx, accountId, body.conversation_id, body.from);
  return ctx.db.transaction(() => {
    renameGroup(ctx, group, body.title, from);
    return chatNow(ctx, conversation);
  });
}

/**
 * `simulate add|remove ID HANDLE --from H`: a member adds someone to the group or removes someone
 * (itself: it leaves). One of the account's numbers that is added gets its conversation of the
 * group; one that is removed keeps its conversation but gets nothing more and cannot send into it.
 */
export function simulateParticipants(ctx: DomainContext, accountId: string, input: JsonObject): ChatResource {
  const body = parseInput(simulateParticipantsBody, input);
  const { conversation, group } = groupChangedBy(ctx, accountId, body.conversation_id, body.from);
  const handle = requireHandle(body.handle, "handle");
  return ctx.db.transaction(() => {
    if (body.action === "add") addGroupMember(ctx, group, handle, "handle");
    else {
      assertMember(group, handle, "handle");
      removeGroupMember(ctx, group, handle);
    }
    return chatNow(ctx, conversation);
  });
}
