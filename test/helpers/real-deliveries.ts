import { triggerEvent } from "../../src/client/trigger.js";
import { EVENT_TYPES, type EventType } from "../../src/contract/names.js";
import { startSandbox } from "../../src/index.js";
import { startReceiver, type ReceivedRequest } from "./webhook-receiver.js";

/** A signed delivery as the receiver got it: the raw body, its headers, and the secret it was signed with. */
export interface RealDelivery {
  type: EventType;
  body: string;
  headers: ReceivedRequest["headers"];
  secret: string;
}

/**
 * Real signed deliveries of every event of spec section 6: a sandbox on the manual clock, one
 * endpoint on a local receiver, each event caused by `msgctl trigger`'s recipe and settled. The
 * documents' webhooks and the verify snippets are checked against these.
 */
export async function deliveriesOfEveryEvent(): Promise<RealDelivery[]> {
  const receiver = await startReceiver();
  const sb = await startSandbox();
  try {
    const { secret } = (await sb.client.webhooks.create({ url: receiver.url })).webhook;
    for (const type of EVENT_TYPES) await triggerEvent(sb.client, type);
    await sb.settle();
    return receiver.requests.map((request) => ({
      type: (JSON.parse(request.body) as { type: EventType }).type,
      body: request.body,
      headers: request.headers,
      secret,
    }));
  } finally {
    await sb.stop();
    await receiver.close();
  }
}
