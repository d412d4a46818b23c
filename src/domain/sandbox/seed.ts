import { hashKey } from "../../lib/key-hash.js";
import { insertAccount, insertApiKey, insertNumber } from "../../store/accounts.js";
import { readMeta, writeMeta } from "../../store/meta.js";
import type { DomainContext } from "../core/context.js";
import { setContactProfile } from "../world/contacts.js";
import type { Fixture } from "./fixture.js";
import type { NumberResource } from "../world/numbers.js";

/** An account as seeded, with its keys in clear: the only moment they are known. */
export interface SeededAccount {
  name: string;
  api_key: string;
  otp_api_key: string;
  numbers: NumberResource[];
  /** Which keys were generated (shown once) rather than named by the fixture. */
  generated: { api_key: boolean; otp_api_key: boolean };
}

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
    const seeded = fixture.accounts.map((account, position) => {
      const id = ctx.ids.uuid();
      const createdAt = ctx.recordTime();
      insertAccount(ctx.db, { id, name: account.name, app_name: account.app_name, otp_suspended: account.otp_suspended ? 1 : 0, position, created_at: createdAt });
      const apiKey = account.api_key ?? `sk_test_${ctx.ids.token(24)}`;
      const otpKey = account.otp_api_key ?? `otp_live_${ctx.ids.token(24)}`;
      insertApiKey(ctx.db, { key_hash: hashKey(apiKey), account_id: id, kind: "messaging", hint: apiKey.slice(0, 12), created_at: createdAt });
      insertApiKey(ctx.db, { key_hash: hashKey(otpKey), account_id: id, kind: "otp", hint: otpKey.slice(0, 13), created_at: createdAt });
      account.numbers.forEach((number, i) => {
        insertNumber(ctx.db, {
          handle: number.handle,
          account_id: id,
          channels: JSON.stringify(number.channels),
          label: number.label,
          whatsapp_api: number.whatsapp_api,
          position: i,
          created_at: ctx.recordTime(),
        });
      });
      return {
        name: account.name,
        api_key: apiKey,
        otp_api_key: otpKey,
        numbers: account.numbers.map((n) => ({
          handle: n.handle,
          channels: n.channels,
          label: n.label,
          status: "online",
          ...(n.whatsapp_api ? { whatsapp_api: n.whatsapp_api } : {}),
        })),
        generated: { api_key: account.api_key === undefined, otp_api_key: account.otp_api_key === undefined },
      };
    });
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
