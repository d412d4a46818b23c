/**
 * Scenario files: read and checked (`loadScenario`), run against a sandbox through the typed
 * client (`runScenarios`), reported as JSON or JUnit XML. The format's schema is the contract's
 * (`contract/scenario-file.ts`).
 */
export { loadScenario, parseScenario, problemText, UnreadableScenario } from "./load.js";
export { runScenarios } from "./run.js";
export { jsonReport, junitReport, stepLabel } from "./reports.js";
export { subsetMismatches } from "./json-subset.js";
export { fillTemplates } from "./templates.js";
export type { FileResult, RunReport, Scenario, ScenarioProblem } from "./types.js";
