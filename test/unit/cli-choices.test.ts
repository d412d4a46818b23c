import { describe, expect, it } from "vitest";
import * as choices from "../../src/cli/choices.js";
import {
  channel,
  contactTraits,
  EVENT_TYPES,
  FAULT_NAMES,
  sendMessageBody,
  whatsappApi,
} from "../../src/contract/index.js";

/**
 * The CLI names its flags' values in plain lists (no zod at start-up): each must be the
 * contract's list, or a flag would refuse a value the API takes, or pass one it refuses.
 */
describe("the CLI's choices are the contract's values", () => {
  it.each([
    ["CHANNELS", choices.CHANNELS, channel.options],
    ["PLATFORMS", choices.PLATFORMS, contactTraits.shape.platform.options],
    ["MEDIA_QUALITIES", choices.MEDIA_QUALITIES, sendMessageBody.shape.media_quality.unwrap().unwrap().options],
    ["FAULT_NAMES", choices.FAULT_NAMES, FAULT_NAMES],
    ["WHATSAPP_APIS", choices.WHATSAPP_APIS, whatsappApi.options],
    ["EVENT_NAMES", choices.EVENT_NAMES, EVENT_TYPES],
  ])("%s", (_name, cli, contract) => {
    expect([...cli]).toEqual([...contract]);
  });

  it("the clock modes are real and manual", () => {
    expect([...choices.CLOCK_MODES]).toEqual(["real", "manual"]);
  });
});
