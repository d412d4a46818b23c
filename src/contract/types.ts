/** The types of the wire contract, without the schemas: what the package's public API exports. */
export type { Channel, Envelope, ErrorBody, ListEnvelope, Page } from "./common.js";
export type { FaultName, FaultSwitch, NumberFaults, NumberResource } from "./numbers.js";
export type {
  HandleAvailability,
  MessageResource,
  SendMessageInput,
} from "./messages.js";
export type { ChallengeStatus, DeliveryStatus, MessageStatus } from "./statuses.js";
export type { ChatResource } from "./chats.js";
export type { ChatRemoteView, CreateChatInput, RenameChatInput } from "./chats.js";
export type { GroupReceipt } from "./messages.js";
export type {
  AttachmentDelivery,
  AttachmentResource,
  MediaDecision,
  PresignInput,
  PresignResult,
} from "./attachments.js";
export type { EventType } from "./names.js";
export type { EventPayload, EventPayloads, EventView } from "./events.js";
export type {
  CreatedWebhook,
  CreateWebhookInput,
  Delivery,
  DeliveryAttempt,
  RetryLadder,
  UpdateWebhookInput,
  WebhookResource,
  WebhookWithSecret,
} from "./webhooks.js";
export type { CheckProbe } from "./check-probes.js";
export type { CheckWebhookInput, ProbeResult, WebhookCheckReport } from "./webhook-check.js";
export type {
  ContactTraits,
  ContactView,
  InboundInput,
  SimulateEditInput,
  SimulateReactionInput,
  SimulateTypingInput,
} from "./world.js";
export type { SimulateParticipantsInput, SimulateRenameInput } from "./world.js";
export type {
  ChallengeResource,
  ChallengeTextInput,
  CreateChallengeInput,
  CreatedChallenge,
  OtpChallengeView,
  OtpFaults,
  OtpText,
  OtpTextInput,
  OtpTextResult,
  TextOutcome,
} from "./otp.js";
export type { AccountView, ClockView, SettleResult } from "./control.js";
export type { Fixture, FixtureInput } from "./fixture.js";
export type { Settings, SettingsOverrides, SettingsPatch, SettingsView } from "./settings.js";
export type { CreateAccountInput } from "./accounts.js";
export type { ActivityChange, ReactionView } from "./activity.js";
export type { ChaosInput, ChaosLogEntry, ChaosRates, ChaosStatus } from "./chaos.js";
export type { ChaosKind, ChaosProfileName, DeliveryChaosKind } from "./chaos-names.js";
export type { DeletedSnapshot, RestoredNotice, RestoredSnapshot, SnapshotView } from "./snapshots.js";
