import type { Fixture } from "../../contract/fixture.js";
import { readMeta, writeMeta } from "../../store/meta.js";
import { createAccount, type CreatedAccount } from "../accounts/index.js";
import type { DomainContext } from "../core/index.js";
import { setContactProfile } from "../world/index.js";

/** An account as seeded, with its keys in clear: the only moment they are known. */
export type SeededAccount = CreatedAccount;

/** The OTP service's numbers (where users text their codes). */
export interface OtpNumbers {
  number: string;
  whatsapp_number: string | null;
}

/** True once a fixture was seeded into this database. */
export function isSeeded(ctx: DomainContext): boolean {
  return readMeta(ctx.db, "seeded_at") !== undefined;
}

/** Seeds an empty database from a validated fixture, in one transaction. */
export function seedFixture(ctx: DomainContext, fixture: Fixture): SeededAccount[] {
  return ctx.db.transaction(() => {
    const seeded = fixture.accounts.map((account, position) => createAccount(ctx, account, position));
    for (const contact of fixture.contacts) {
      const { handle, ...traits } = contact;
      const defined = Object.fromEntries(Object.entries(traits).filter(([, v]) => v !== undefined));
      // An Android phone is never on iMessage, unless the fixture says otherwise.
      if (traits.platform === "android" && traits.imessage === undefined) defined.imessage = false;
      setContactProfile(ctx, handle, defined);
    }
    writeMeta(ctx.db, "otp_numbers", JSON.stringify({ number: fixture.otp.number, whatsapp_number: fixture.otp.whatsapp_number ?? null }));
    writeMeta(ctx.db, "seeded_at", String(ctx.clock.now()));
    return seeded;
  });
}

/** The OTP numbers seeded from the fixture. */
export function otpNumbers(ctx: DomainContext): OtpNumbers {
  const raw = readMeta(ctx.db, "otp_numbers");
  return raw ? (JSON.parse(raw) as OtpNumbers) : { number: "+14155550190", whatsapp_number: "+14155550189" };
}
