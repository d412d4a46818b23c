/**
 * The domain's kernel: the context every rule runs with, the outbox, scheduled jobs, the bus
 * live listeners hear from, the settings of the simulated world, and the module shape concepts
 * plug in with.
 */
export { cacheOf, createContext, forgetSettings, resetCaches, type DomainContext } from "./context.js";
export { createBus, type DomainBus } from "./bus.js";
export {
  EVENT_TYPES,
  emitEvent,
  getEvent,
  listEvents,
  parseEventTypes,
  toEventView,
  type EmittedEvent,
  type EventFields,
  type EventType,
  type EventView,
} from "./events.js";
export {
  scheduleJob,
  type JobCompletion,
  type JobHandler,
  type JobRun,
  type SettleOutcome,
  type UnfinishedJob,
} from "./jobs.js";
export { nextListTime } from "./list-time.js";
export { fanOutsOf, jobHandlersOf, type BoundJobHandler, type DomainModule } from "./module.js";
export {
  defaultSettings,
  mergeSettingsPatches,
  readSettingsPatch,
  SETTINGS_META_KEY,
  settingsViewOf,
  startSettingsPatch,
  type SettingsOverrides,
} from "./settings.js";
