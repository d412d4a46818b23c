import { accountsClient } from "./accounts.js";
import { attachmentsClient } from "./attachments.js";
import { HttpClient, type ClientOptions } from "./http.js";
import { chaosClient } from "./chaos.js";
import { chatsClient } from "./chats.js";
import { controlClient } from "./control.js";
import { messagesClient } from "./messages.js";
import { numbersClient } from "./numbers.js";
import { otpClient } from "./otp.js";
import { settingsClient } from "./settings.js";
import { snapshotsClient } from "./snapshots.js";
import { webhooksClient } from "./webhooks.js";
import { contactsClient, simulateClient } from "./world.js";

/** A typed client of both hosts and the control API. */
export function createClient(options: ClientOptions) {
  const http = new HttpClient(options);
  return {
    http,
    numbers: numbersClient(http),
    sandbox: controlClient(http),
    webhooks: webhooksClient(http),
    messages: messagesClient(http),
    attachments: attachmentsClient(http),
    chats: chatsClient(http),
    contacts: contactsClient(http),
    simulate: simulateClient(http),
    otp: otpClient(http),
    accounts: accountsClient(http),
    chaos: chaosClient(http),
    settings: settingsClient(http),
    snapshots: snapshotsClient(http),
  };
}

/** The client `createClient` returns. */
export type MsgctlClient = ReturnType<typeof createClient>;
