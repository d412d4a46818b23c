import { attachmentsModule } from "../domain/attachments/index.js";
import { chaosModule } from "../domain/chaos/index.js";
import type { DomainModule } from "../domain/core/index.js";
import { messagesModule } from "../domain/messages/index.js";
import { otpModule } from "../domain/otp/index.js";
import { webhooksModule } from "../domain/webhooks/index.js";

/**
 * Every concept that plugs into the scheduler or the outbox, in order. A concept with job kinds
 * or a fan-out exports its module from its face and is listed here; nothing else registers.
 */
export const MODULES: readonly DomainModule[] = [
  messagesModule,
  webhooksModule,
  attachmentsModule,
  otpModule,
  chaosModule,
];
