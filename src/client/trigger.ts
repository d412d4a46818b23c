import type { EventType, EventView, MessageResource, NumberResource } from "../contract/types.js";
import type { MsgctlClient } from "./client.js";

/**
 * `msgctl trigger EVENT` (as Stripe CLI's `trigger`): for each event of spec section 6, the real
 * actions that cause it, through the same API an app and the other side use. On a manual clock
 * the clock is advanced just far enough; on a real clock the event is awaited. The event is the
 * last one of what the trigger made: each recipe picks a contact whose phone stops the message
 * there (switched off: it stays sent; read receipts off: it stays delivered), so nothing the user
 * did not ask for follows when the clock moves on.
 */

/** What a trigger did: the event it produced and the resources it created on the way. */
export interface TriggerResult {
  event: EventView;
  created: { message?: MessageResource; inbound?: MessageResource; conversation_id?: string };
  /** Virtual milliseconds the manual clock was advanced (0 on a real clock). */
  advanced_ms: number;
}

/** The contact triggers talk with: a fictional number with the default profile (iOS, iMessage, read receipts). */
const TRIGGER_CONTACT = "+14155550160";
/** The third member of the group `trigger conversation.renamed` makes (default profile, like the contact). */
const TRIGGER_MEMBER = "+14155550161";
/** The magic Android number with no inbound on record: an outbound-first send to it fails. */
const ANDROID_CONTACT = "+14155550170";
/** The magic unreachable phone: a message to it is sent and stays sent (never delivered, never read). */
const SWITCHED_OFF_CONTACT = "+14155550171";
/** The magic iPhone with read receipts off: a message to it is delivered and stays delivered. */
const NO_RECEIPTS_CONTACT = "+14155550172";

/** What each event needs: a short description and the recipe. */
const RECIPES: Record<EventType, { does: string; run: (t: Trigger) => Promise<TriggerResult> }> = {
  "message.sent": {
    does: "sends an iMessage to a phone that is switched off: it leaves the queue and stays sent",
    run: (t) => t.sendAndAwait("message.sent", SWITCHED_OFF_CONTACT),
  },
  "message.delivered": {
    does: "sends an iMessage that an iPhone with read receipts off acknowledges: it stays delivered",
    run: (t) => t.sendAndAwait("message.delivered", NO_RECEIPTS_CONTACT),
  },
  "message.read": {
    does: "sends an iMessage that the contact reads (read receipts on)",
    run: (t) => t.sendAndAwait("message.read"),
  },
  "message.failed": {
    does: "sends outbound-first to an Android contact, which fails at the send attempt",
    run: (t) => t.sendAndAwait("message.failed", ANDROID_CONTACT),
  },
  "message.received": {
    does: "the contact sends an inbound message to the account's number",
    run: async (t) => {
      const inbound = await t.inbound("Triggered by msgctl");
      return t.result(await t.await("message.received", inbound.id), {
        inbound,
        conversation_id: inbound.conversation_id,
      });
    },
  },
  "message.edited": {
    does: "sends an iMessage to a phone that is switched off, then edits it once it has gone out (it stays sent)",
    run: async (t) => {
      const message = await t.send(SWITCHED_OFF_CONTACT);
      await t.await("message.sent", message.id);
      await t.client.messages.edit(message.id, "Triggered by msgctl (edited)");
      return t.result(await t.await("message.edited", message.id), {
        message,
        conversation_id: message.conversation_id,
      });
    },
  },
  "message.reaction": {
    does: "sends an iMessage that an iPhone with read receipts off loves once delivered (it stays delivered)",
    run: async (t) => {
      const message = await t.send(NO_RECEIPTS_CONTACT);
      await t.await("message.delivered", message.id);
      await t.client.simulate.reaction({ message_id: message.id, from: NO_RECEIPTS_CONTACT, reaction: "love" });
      return t.result(await t.await("message.reaction", message.id), {
        message,
        conversation_id: message.conversation_id,
      });
    },
  },
  "conversation.typing": {
    does: "the contact messages the account's number, then starts typing in that thread",
    run: async (t) => {
      const inbound = await t.inbound("Typing next");
      await t.client.simulate.typing({ from: TRIGGER_CONTACT, to: t.number.handle });
      const event = await t.await("conversation.typing", undefined, inbound.conversation_id);
      return t.result(event, { inbound, conversation_id: inbound.conversation_id });
    },
  },
  "conversation.renamed": {
    does: "a contact starts an iMessage group with the account's number, then renames it",
    run: async (t) => {
      const inbound = await t.client.simulate.inbound({
        from: TRIGGER_CONTACT,
        to: t.number.handle,
        members: [TRIGGER_MEMBER],
        text: "Triggered by msgctl",
      });
      await t.client.simulate.rename({
        conversation_id: inbound.conversation_id,
        title: "Triggered by msgctl",
        from: TRIGGER_CONTACT,
      });
      const event = await t.await("conversation.renamed", undefined, inbound.conversation_id);
      return t.result(event, { inbound, conversation_id: inbound.conversation_id });
    },
  },
};

/** A trigger whose event did not come (exit 1 in the CLI, like a wait that timed out). */
class TriggerFailed extends Error {
  override readonly name = "TriggerFailed";
}

/** Every event `trigger` can cause, with what it does. */
export function triggerList(): { event: EventType; does: string }[] {
  return Object.entries(RECIPES).map(([event, recipe]) => ({ event: event as EventType, does: recipe.does }));
}

/** Runs the actions that cause `type` and resolves once the event was emitted. */
export async function triggerEvent(client: MsgctlClient, type: EventType): Promise<TriggerResult> {
  const recipe = RECIPES[type];
  const numbers = await client.numbers.list();
  const number = numbers.find((n) => n.channels.includes("imessage"));
  if (!number) throw new TriggerFailed("The account has no iMessage number to trigger events with");
  const { mode } = await client.sandbox.clock();
  // Only events after the newest one so far: a trigger never mistakes an earlier run's event for its own.
  const { data: newest } = await client.sandbox.events({ order: "desc", limit: 1 });
  return recipe.run(new Trigger(client, number, mode, newest[0]?.seq ?? 0));
}

// Manual clock: advance in doubling steps from 100 ms until the event shows (at most about a day).
const FIRST_STEP_MS = 100;
const MAX_ADVANCE_MS = 26 * 3_600_000;
// Real clock: how long to wait for the event, and how often to look.
const REAL_TIMEOUT_MS = 15_000;
const POLL_MS = 50;

/** One trigger run: the client, the number it acts from, and the events it has seen. */
class Trigger {
  advancedMs = 0;

  constructor(
    readonly client: MsgctlClient,
    readonly number: NumberResource,
    readonly mode: "real" | "manual",
    private readonly after: number,
  ) {}

  send(to: string): Promise<MessageResource> {
    return this.client.messages
      .send({ from_handle: this.number.handle, to, text: "Triggered by msgctl" })
      .then((r) => r.message);
  }

  inbound(text: string): Promise<MessageResource> {
    return this.client.simulate.inbound({ from: TRIGGER_CONTACT, to: this.number.handle, text });
  }

  async sendAndAwait(type: EventType, to = TRIGGER_CONTACT): Promise<TriggerResult> {
    const message = await this.send(to);
    return this.result(await this.await(type, message.id), { message, conversation_id: message.conversation_id });
  }

  result(event: EventView, created: TriggerResult["created"]): TriggerResult {
    return { event, created, advanced_ms: this.advancedMs };
  }

  /** The first event of `type` about this message (or conversation) since the trigger began. */
  async await(type: EventType, messageId?: string, conversationId?: string): Promise<EventView> {
    const wanted = (event: EventView) => {
      const payload = event.payload as { message_id?: string; conversation_id?: string };
      return (
        event.type === type &&
        (messageId === undefined || payload.message_id === messageId) &&
        (conversationId === undefined || payload.conversation_id === conversationId)
      );
    };
    const deadline = Date.now() + REAL_TIMEOUT_MS;
    let step = FIRST_STEP_MS;
    for (;;) {
      const found = (await this.eventsSince()).find(wanted);
      if (found) return found;
      if (this.mode === "manual") {
        if (this.advancedMs >= MAX_ADVANCE_MS) break;
        await this.client.sandbox.advance(step);
        this.advancedMs += step;
        step *= 2;
      } else {
        if (Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }
    throw new TriggerFailed(
      `No ${type} event arrived${this.mode === "manual" ? ` after advancing the clock ${this.advancedMs} ms` : ` within ${REAL_TIMEOUT_MS / 1000} s`}`,
    );
  }

  private async eventsSince(): Promise<EventView[]> {
    const all: EventView[] = [];
    let after = this.after;
    for (;;) {
      const page = await this.client.sandbox.events({ after, limit: 100 });
      all.push(...page.data);
      if (!page.hasMore || page.data.length === 0) return all;
      after = page.data.at(-1)?.seq ?? after;
    }
  }
}
