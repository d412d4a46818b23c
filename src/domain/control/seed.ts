import type { Fixture } from "../../contract/fixture.js";
import type { SettingsPatch } from "../../contract/settings.js";
import { readMeta, writeMeta } from "../../store/core/index.js";
import { createAccount, type CreatedAccount } from "../accounts/index.js";
import type { DomainContext } from "../core/index.js";
import { saveOtpNumbers } from "../otp/index.js";
import { setContactProfile } from "../world/index.js";
import { applySettings } from "./settings.js";

/** An account as seeded, with its keys in clear: the only moment they are known. */
export type SeededAccount = CreatedAccount;

/** True once a fixture was seeded into this database. */
export function isSeeded(ctx: DomainContext): boolean {
  return readMeta(ctx.db, "seeded_at") !== undefined;
}

/**
 * Seeds an empty database from a validated fixture, in one transaction; `settings` (the start
 * options') go over the fixture's.
 */
export function seedFixture(ctx: DomainContext, fixture: Fixture, settings: SettingsPatch = {}): SeededAccount[] {
  return ctx.db.transaction(() => {
    const seeded = fixture.accounts.map((account, position) => createAccount(ctx, account, position));
    for (const contact of fixture.contacts) {
      const { handle, ...traits } = contact;
      const defined = Object.fromEntries(Object.entries(traits).filter(([, v]) => v !== undefined));
      // An Android phone is never on iMessage, unless the fixture says otherwise.
      if (traits.platform === "android" && traits.imessage === undefined) defined.imessage = false;
      setContactProfile(ctx, handle, defined);
    }
    saveOtpNumbers(ctx, fixture.otp);
    applySettings(ctx, fixture.settings ?? {});
    applySettings(ctx, settings);
    writeMeta(ctx.db, "seeded_at", String(ctx.clock.now()));
    return seeded;
  });
}
