import type { ScenarioStep } from "../contract/scenario-file.js";

/** A scenario file, read and checked: ready to run. */
export interface Scenario {
  /** The path as given on the command line. */
  file: string;
  /** Its `name`, or the file's name without its folder. */
  name: string;
  /** A snapshot to restore (the whole sandbox) before the first step. */
  restore?: string;
  steps: ScenarioStep[];
}

/** Something wrong with a file, found before anything ran. */
export interface ScenarioProblem {
  file: string;
  /** Where: `steps[2].send.to`, or empty for the file itself. */
  path: string;
  message: string;
  /** 1-based, where the file's text locates it. */
  line?: number;
  column?: number;
}

/** How one step went. */
export interface StepResult {
  /** Its place in `steps`, from 0. */
  index: number;
  kind: string;
  passed: boolean;
  /** One line: what it did, or what went wrong. */
  message: string;
  /** An unmet expectation (the file goes on) rather than a step that could not be done (it stops). */
  expectation?: boolean;
  /** For a failure: what was expected and what was seen, in lines for people. */
  details?: string[];
}

/** How one file went. */
export interface FileResult {
  file: string;
  name: string;
  passed: boolean;
  /** The steps that ran, in order (those after a step that could not be done did not). */
  steps: StepResult[];
  /** How many steps the file has. */
  total: number;
  /** Real time it took, in milliseconds. */
  durationMs: number;
  /** What stopped it before its first step (a snapshot that would not restore, no account). */
  error?: string;
  /** The account it ran as; kept for a look when the file failed. */
  account?: { name: string; api_key: string; kept: boolean };
}

/** Every file's result, and the files `--bail` left unrun. */
export interface RunReport {
  files: FileResult[];
  /** Files not run because --bail stopped at an earlier failure. */
  notRun: { file: string; name: string }[];
  /** When the run started (ISO 8601). */
  startedAt: string;
  durationMs: number;
}
