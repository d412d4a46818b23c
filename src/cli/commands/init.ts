import { existsSync } from "node:fs";
import { checkbox, confirm, input, select } from "@inquirer/prompts";
import { parseFixture, type Fixture } from "../../domain/control/index.js";
import { normalizePhone, parseHandle } from "../../lib/handles.js";
import { writeOutputFile } from "../output-file.js";
import type { Output } from "../output.js";
import { UsageError } from "../usage-error.js";
import { DEFAULT_FIXTURE_FILE } from "../defaults.js";

/** The prompts `init` asks with; tests pass scripted ones. */
export interface Prompts {
  input(config: { message: string; default?: string; validate?: (value: string) => boolean | string }): Promise<string>;
  confirm(config: { message: string; default?: boolean }): Promise<boolean>;
  select<T extends string>(config: { message: string; choices: { name: string; value: T }[]; default?: T }): Promise<T>;
  checkbox<T extends string>(config: {
    message: string;
    choices: { name: string; value: T; checked?: boolean }[];
    required?: boolean;
  }): Promise<T[]>;
}

/** The real prompts, from @inquirer/prompts. */
export const inquirerPrompts: Prompts = {
  input: (config) => input(config),
  confirm: (config) => confirm(config),
  select: (config) => select(config),
  checkbox: (config) => checkbox(config),
};

const validPhone = (value: string) =>
  normalizePhone(value) ? true : "Enter a valid number in E.164 form, e.g. +14155550101";

/** A small fixture with one account and the sample numbers: what `init --yes` writes. */
export const starterFixture = {
  accounts: [
    {
      name: "My App",
      app_name: "My App",
      numbers: [
        { handle: "+14155550101", channels: ["imessage", "sms"], label: "main" },
        { handle: "+14155550102", channels: ["whatsapp"], label: "whatsapp", whatsapp_api: "linked" },
      ],
    },
  ],
  contacts: [{ handle: "+14155550191", imessage: true, platform: "ios", whatsapp: true }],
  otp: { number: "+14155550190", whatsapp_number: "+14155550189" },
};

async function askNumbers(prompts: Prompts) {
  const numbers = [];
  do {
    const handle = await prompts.input({
      message: "Business number (E.164)",
      default: `+141555501${String(numbers.length + 1).padStart(2, "0")}`,
      validate: validPhone,
    });
    const channels = await prompts.checkbox<"imessage" | "sms" | "whatsapp">({
      message: "Channels it serves",
      required: true,
      choices: [
        { name: "iMessage", value: "imessage", checked: true },
        { name: "SMS", value: "sms", checked: true },
        { name: "WhatsApp", value: "whatsapp" },
      ],
    });
    const label = await prompts.input({ message: "Label", default: numbers.length === 0 ? "main" : "" });
    const number: Record<string, unknown> = { handle: normalizePhone(handle), channels, label };
    if (channels.includes("whatsapp")) {
      number.whatsapp_api = await prompts.select({
        message: "WhatsApp API",
        choices: [
          { name: "linked device (groups, can need re-linking)", value: "linked" },
          { name: "Cloud API (no groups)", value: "cloud" },
        ],
      });
    }
    numbers.push(number);
  } while (await prompts.confirm({ message: "Add another number?", default: false }));
  return numbers;
}

async function askContacts(prompts: Prompts) {
  const contacts = [];
  while (
    await prompts.confirm({
      message: contacts.length ? "Add another contact?" : "Add a contact with a special profile?",
      default: false,
    })
  ) {
    const handle = await prompts.input({
      message: "Contact phone or iMessage email",
      validate: (v) => (parseHandle(v) ? true : "Enter a phone number or an email"),
    });
    const platform = await prompts.select({
      message: "Platform",
      choices: [
        { name: "iOS", value: "ios" as const },
        { name: "Android", value: "android" as const },
      ],
    });
    contacts.push({
      handle: parseHandle(handle)?.value,
      platform,
      imessage:
        platform === "ios" ? await prompts.confirm({ message: "Registered with iMessage?", default: true }) : false,
      whatsapp: await prompts.confirm({ message: "On WhatsApp?", default: true }),
      reachable: await prompts.confirm({ message: "Reachable?", default: true }),
      read_receipts: await prompts.confirm({ message: "Read receipts on?", default: true }),
    });
  }
  return contacts;
}

/** `msgctl init`: asks for accounts, numbers and contacts, then writes a validated fixture file. */
export async function init(
  options: { output?: string; yes?: boolean; force?: boolean },
  out: Output,
  prompts: Prompts = inquirerPrompts,
): Promise<{ path: string; fixture: Fixture }> {
  const path = options.output ?? DEFAULT_FIXTURE_FILE;
  let raw: unknown = starterFixture;
  if (!options.yes) {
    if (!out.interactive && prompts === inquirerPrompts)
      throw new UsageError("`msgctl init` asks questions: run it in a terminal, or pass --yes for a starter fixture");
    const name = await prompts.input({ message: "Account name", default: "My App" });
    const appName = await prompts.input({ message: "App name (shown in OTP replies)", default: name });
    const numbers = await askNumbers(prompts);
    const contacts = await askContacts(prompts);
    const otpNumber = await prompts.input({
      message: "OTP service number (users text codes here)",
      default: "+14155550190",
      validate: validPhone,
    });
    raw = {
      accounts: [{ name, app_name: appName, numbers }],
      contacts,
      otp: { number: normalizePhone(otpNumber), whatsapp_number: "+14155550189" },
    };
  }
  const fixture = parseFixture(raw, path);
  if (existsSync(path) && !options.force) {
    const overwrite = options.yes
      ? false
      : await prompts.confirm({ message: `${path} exists. Overwrite it?`, default: false });
    if (!overwrite) throw new UsageError(`${path} exists: pass --force to overwrite it`);
  }
  writeOutputFile(path, options.output === undefined ? undefined : "-o", `${JSON.stringify(raw, null, 2)}\n`);
  out.result({ path, fixture: raw as Fixture }, () => [
    `${out.color.green("Wrote")} ${path}`,
    `Start a sandbox with it: ${out.color.cyan(`msgctl serve --fixture ${path}`)}`,
  ]);
  return { path, fixture };
}
