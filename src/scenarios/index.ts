/**
 * Scenario files: read and checked (`loadScenario`), run against a sandbox through the typed
 * client (`runScenarios`), reported as JSON or JUnit XML. The format's schema is the contract's
 * (`contract/scenario-file.ts`).
 */
export { loadScenario, parseScenario, problemText, UnreadableScenario } from "./load.js";
export { runScenarios, type RunOptions } from "./run.js";
export { jsonReport, junitReport, stepLabel, type JsonReport } from "./reports.js";
export { subsetMismatches, type Mismatch } from "./json-subset.js";
export { fillTemplates, TemplateError } from "./templates.js";
export type { FileResult, RunReport, Scenario, ScenarioProblem, StepResult } from "./types.js";
