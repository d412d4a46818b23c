import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allAccounts } from "../../src/domain/accounts/index.js";
import { createGroupChat, getChat } from "../../src/domain/conversations/index.js";
import { getMessage, sendMessage } from "../../src/domain/messages/index.js";
import { launchSandbox } from "../../src/runtime/launch-sandbox.js";

describe("groups survive a restart (docs/sandbox.md: state and queued jobs persist)", () => {
  it("keeps the group, its idempotency key and its members' pending receipts", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-groups-restart-")), "sandbox.db");
    const first = await launchSandbox({ db, clock: "manual", listen: false });
    const account = allAccounts(first.ctx)[0]!.id;
    const input = {
      from_handle: "+14155550101",
      addresses: ["+14155550150", "+14155550172"],
      message: "hi",
      title: "Kept",
    };
    const { chat } = createGroupChat(first.ctx, account, input, "group-key");
    const { message } = sendMessage(first.ctx, account, { conversation_id: chat.id, text: "persist" }, undefined);
    await first.scheduler.advance(200); // sent; each member's acknowledgement is a job
    await first.stop();

    const second = await launchSandbox({ db, clock: "manual", listen: false });
    expect(createGroupChat(second.ctx, account, input, "group-key")).toMatchObject({
      replayed: true,
      chat: { id: chat.id, title: "Kept" },
    });
    await second.scheduler.advance(3_000);
    const after = getMessage(second.ctx, account, message.id);
    expect(after.status).toBe("read");
    expect(after.recipients?.map((r) => [r.handle, r.delivered_at !== null, r.read_at !== null])).toEqual([
      ["+14155550150", true, true],
      ["+14155550172", true, false],
    ]);
    expect(getChat(second.ctx, account, chat.id).last_message_at).toBe(message.created_at);
    await second.stop();
  });

  it("never gives a new message the millisecond a created group took, after a restart either", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-groups-restart-")), "sandbox.db");
    const first = await launchSandbox({ db, clock: "manual", listen: false });
    const account = allAccounts(first.ctx)[0]!.id;
    const { chat } = createGroupChat(
      first.ctx,
      account,
      { from_handle: "+14155550101", addresses: ["+14155550150", "+14155550151"], message: "hi" },
      undefined,
    );
    await first.stop();

    // The manual clock resumes where it stood: the same millisecond as the group's last_message_at.
    const second = await launchSandbox({ db, clock: "manual", listen: false });
    const { message } = sendMessage(
      second.ctx,
      account,
      { to: "+14155550191", from_handle: "+14155550101", text: "next" },
      undefined,
    );
    expect(Date.parse(message.created_at)).toBeGreaterThan(Date.parse(chat.last_message_at));
    await second.stop();
  });
});
