import type { H3, H3Event } from "h3";
import type { DomainContext } from "../domain/core/index.js";
import type { SandboxControl } from "../domain/control/index.js";
import { createHostApp } from "./host-app.js";
import type { HostGuard } from "./host-guard.js";
import type { Route } from "./route.js";
import { attachmentRoutes } from "./routes/attachments.js";
import { chatRoutes } from "./routes/chats.js";
import { controlChaosRoutes } from "./routes/control-chaos.js";
import { controlChatRoutes } from "./routes/control-chats.js";
import { controlClockRoutes } from "./routes/control-clock.js";
import { controlDeliveryRoutes } from "./routes/control-deliveries.js";
import { controlEventRoutes } from "./routes/control-events.js";
import { controlAccountRoutes } from "./routes/control-accounts.js";
import { controlActivityRoutes } from "./routes/control-activity.js";
import { controlOtpRoutes } from "./routes/control-otp.js";
import { controlOtpChallengeRoutes } from "./routes/control-otp-challenges.js";
import { controlResetRoutes } from "./routes/control-reset.js";
import { controlSettingsRoutes } from "./routes/control-settings.js";
import { controlSettleRoutes } from "./routes/control-settle.js";
import { controlSimulateRoutes } from "./routes/control-simulate.js";
import { controlSnapshotRoutes } from "./routes/control-snapshots.js";
import { controlWebhookCheckRoutes } from "./routes/control-webhook-check.js";
import { controlWorldRoutes } from "./routes/control-world.js";
import { healthRoutes } from "./routes/health.js";
import { openApiRoute } from "./routes/openapi.js";
import { inspectorRoutes } from "./routes/inspector.js";
import { messageRoutes } from "./routes/messages.js";
import { numberRoutes } from "./routes/numbers.js";
import { challengeRoutes } from "./routes/challenges.js";
import { webhookRoutes } from "./routes/webhooks.js";

/** The control API routes both hosts serve under /sandbox/v1. */
const controlRoutes: Route[] = [
  ...controlClockRoutes,
  ...controlResetRoutes,
  ...controlAccountRoutes,
  ...controlEventRoutes,
  ...controlSettingsRoutes,
];

/** Every route of the messaging host: spec 4.1-4.5 under /v1, the control API, health. */
export const messagingRoutes: Route[] = [
  ...inspectorRoutes,
  ...healthRoutes,
  ...numberRoutes,
  ...messageRoutes,
  ...attachmentRoutes,
  ...chatRoutes,
  ...webhookRoutes,
  ...controlRoutes,
  ...controlSettleRoutes,
  ...controlSnapshotRoutes,
  ...controlDeliveryRoutes,
  ...controlChaosRoutes,
  ...controlWebhookCheckRoutes,
  ...controlWorldRoutes,
  ...controlSimulateRoutes,
  ...controlChatRoutes,
  ...controlActivityRoutes,
  // The OTP control routes on this host too: the inspector reaches everything through one origin.
  ...controlOtpRoutes,
  ...controlOtpChallengeRoutes,
];

/** Every route of the OTP host: spec 4.6 under /v1, the control API, health. */
export const otpRoutes: Route[] = [
  ...healthRoutes,
  ...controlRoutes,
  ...challengeRoutes,
  ...controlOtpRoutes,
  ...controlOtpChallengeRoutes,
];

/** What both hosts are built from. */
export interface HostsOptions {
  ctx: DomainContext;
  control: SandboxControl;
  /** msgctl's version, for the OpenAPI documents. */
  version: string;
  /** Who may talk to both hosts (one guard: either host's port is an own origin of both). */
  guard?: HostGuard;
  onUnexpectedError?: (error: unknown, event: H3Event) => void;
}

/** A host's app: what `app.request(path, init)` answers in-process and a socket serves. */
export type HostApp = H3;

/** The messaging host app (sk_ keys). */
export function createMessagingApp(options: HostsOptions): H3 {
  const routes: Route[] = [...messagingRoutes, openApiRoute("messaging", () => routes, options.version)];
  return createHostApp({ ...options, keyKind: "messaging", routes });
}

/** The OTP host app (otp_live_ keys). */
export function createOtpApp(options: HostsOptions): H3 {
  const routes: Route[] = [...otpRoutes, openApiRoute("otp", () => routes, options.version)];
  return createHostApp({ ...options, keyKind: "otp", routes });
}
