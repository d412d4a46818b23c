/**
 * The groups the OpenAPI documents list operations under, each with what it holds. A route names
 * one of these (`RouteDoc.tag`), so a new group cannot appear without its description.
 */
export const TAG_DESCRIPTIONS = {
  Sandbox: "The sandbox itself: health, this document, reset, settle.",
  Numbers: "The account's business numbers and the channels each serves.",
  Messages: "Send messages, list and read them, react, edit, unsend, retry.",
  Attachments: "Upload files (multipart or a presigned PUT) and download them through signed URLs.",
  Conversations: "Threads and group chats: list, create a group, rename it, mark it read, typing.",
  Webhooks: "The account's webhook endpoints: where events are POSTed, signed with each endpoint's secret.",
  "Webhook events": "What the sandbox POSTs to each enabled, subscribed endpoint: one request per event and attempt.",
  Challenges: "Phone verification where the user texts a six-digit code: create, read, consume.",
  "Sandbox: clock": "The sandbox's clock (manual or real): read it, advance it, settle what is due.",
  "Sandbox: accounts": "Accounts made on demand, each with its own keys and numbers, for parallel test workers.",
  "Sandbox: events": "The outbox of events every webhook delivery comes from: list, get, stream.",
  "Sandbox: settings": "The simulated world's settings: latencies, media caps, body and upload limits, strict URLs.",
  "Sandbox: webhook deliveries":
    "Every delivery of every event with its attempts; resend one; the retry ladder; check your own handler.",
  "Sandbox: snapshots": "Save the whole sandbox under a name, restore it, list, delete, export and import snapshots.",
  "Sandbox: chaos": "Seeded chaos: duplicated, swapped and delayed deliveries, offline numbers, lost receipts.",
  "Sandbox: simulated world": "The contacts of the simulated world and the faults of the account's numbers.",
  "Sandbox: simulate": "What the other side does: inbound messages, receipts, reactions, typing, edits, group changes.",
  "Sandbox: OTP": "The user's side of OTP: texts to the OTP numbers, the challenges, the OTP host's faults.",
} as const;

/** The name of an operation group of the OpenAPI documents. */
export type TagName = keyof typeof TAG_DESCRIPTIONS;
