import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allAccounts } from "../../src/domain/accounts/index.js";
import { getMessage } from "../../src/domain/messages/index.js";
import { setNumberFault } from "../../src/domain/world/index.js";
import { sendMessage } from "../../src/domain/messages/index.js";
import { launchSandbox } from "../../src/runtime/launch-sandbox.js";

describe("messages survive a restart (docs/sandbox.md: state and queued jobs persist)", () => {
  it("resumes a queued message's retries and its lifecycle after a restart", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-messages-restart-")), "sandbox.db");
    const first = await launchSandbox({ db, clock: "manual", listen: false });
    const account = allAccounts(first.ctx)[0]!.id;
    setNumberFault(first.ctx, account, "+14155550101", { fault: "transient", count: 2 });
    const { message } = sendMessage(
      first.ctx,
      account,
      { to: "+14155550191", from_handle: "+14155550101", text: "persist" },
      "restart-key",
    );
    await first.scheduler.advance(200); // the first attempt fails
    await first.stop();

    const second = await launchSandbox({ db, clock: "manual", listen: false });
    // The idempotency key and the record times survive too.
    const replay = sendMessage(
      second.ctx,
      account,
      { to: "+14155550191", from_handle: "+14155550101", text: "persist" },
      "restart-key",
    );
    expect(replay).toMatchObject({ replayed: true, message: { id: message.id, status: "queued" } });
    await second.scheduler.advance(30_000); // second attempt fails
    expect(getMessage(second.ctx, account, message.id).status).toBe("queued");
    await second.scheduler.advance(30_000 + 3_000); // third goes out, then delivered and read
    expect(getMessage(second.ctx, account, message.id)).toMatchObject({ status: "read", channel: "imessage" });
    await second.stop();
  });
});
