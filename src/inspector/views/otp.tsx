import { useState } from "preact/hooks";
import type { ChallengeTextInput, OtpChallengeView, OtpText } from "../../contract/types.js";
import type { MsgctlClient } from "../../client/client.js";
import { channelName, dateTimeOf, timeOf, untilOf } from "../format.js";
import { refresh, sandboxNow, useInspector, useLive } from "../state.js";

/** OTP: the account's challenges, live, each with its code and expiry; the user's side of each phone's OTP thread. */
export function OtpView() {
  const inspector = useInspector();
  const { client } = inspector;
  const challenges = useLive(client ? () => client.otp.challenges({ limit: 100 }) : null, [client]);
  const [phone, setPhone] = useState<string | null>(null);
  if (!client) return null;
  const list = challenges.data ?? [];
  const shownPhone = phone ?? list[0]?.phone ?? null;
  const now = sandboxNow(inspector);
  return (
    <div class="otp-view">
      <section class="challenges" aria-label="OTP challenges">
        <h2>Challenges</h2>
        {challenges.error && <p class="error">{challenges.error}</p>}
        {list.length === 0 && (
          <p class="empty">
            No challenges yet: your app creates them with POST /v1/challenges on the OTP host (or msgctl otp create
            --phone P).
          </p>
        )}
        <ul>
          {list.map((challenge) => (
            <Challenge
              key={challenge.id}
              client={client}
              challenge={challenge}
              now={now}
              selected={challenge.phone === shownPhone}
              onShowThread={() => setPhone(challenge.phone)}
            />
          ))}
        </ul>
      </section>
      {shownPhone && <OtpThread client={client} phone={shownPhone} />}
    </div>
  );
}

function Challenge({
  client,
  challenge,
  now,
  selected,
  onShowThread,
}: {
  client: MsgctlClient;
  challenge: OtpChallengeView;
  now: number;
  selected: boolean;
  onShowThread(): void;
}) {
  const [result, setResult] = useState<string | null>(null);
  const text = async (input: ChallengeTextInput) => {
    try {
      const answer = await client.otp.text(challenge.id, input);
      setResult(answer.explanation);
      onShowThread();
      refresh();
    } catch (failure) {
      setResult((failure as Error).message);
    }
  };
  const live = challenge.status === "pending" || challenge.status === "verified";
  return (
    <li class="challenge" data-challenge-id={challenge.id} data-status={challenge.status}>
      <div class="row">
        <span class={`badge ${challenge.status}`}>{challenge.status}</span>
        <strong class="code" aria-label="Code">
          {challenge.code}
        </strong>
        <button type="button" class="link" aria-pressed={selected} onClick={onShowThread}>
          {challenge.phone}
        </button>
      </div>
      <p class="meta">
        {live
          ? `expires ${untilOf(Date.parse(challenge.expires_at), now)} (${timeOf(challenge.expires_at)})`
          : `expired at ${dateTimeOf(challenge.expires_at)}`}
        {challenge.wrong_texts > 0 && ` · ${challenge.wrong_texts} wrong text${challenge.wrong_texts === 1 ? "" : "s"}`}
        {challenge.verified_at && ` · verified ${timeOf(challenge.verified_at)}`}
        {challenge.consumed_at && ` · consumed ${timeOf(challenge.consumed_at)}`}
      </p>
      <div class="row actions-row" role="group" aria-label={`Text the OTP number as the user of ${challenge.phone}`}>
        <button type="button" onClick={() => void text({})}>
          Text the right code
        </button>
        <button type="button" class="secondary" onClick={() => void text({ wrong: true })}>
          Text a wrong code
        </button>
        <button
          type="button"
          class="secondary"
          onClick={() => {
            const from = prompt("Text the right code from this phone:", "+14155550199");
            if (from) void text({ from });
          }}
        >
          Text from another phone…
        </button>
      </div>
      {result && (
        <p class="note" role="status">
          {result}
        </p>
      )}
    </li>
  );
}

/** The OTP number's thread with one phone, as that phone shows it: the user's texts right, the service's replies left. */
function OtpThread({ client, phone }: { client: MsgctlClient; phone: string }) {
  const texts = useLive(() => client.otp.texts({ phone, limit: 100 }), [phone]);
  const list = [...(texts.data?.data ?? [])].reverse();
  return (
    <section class="phone otp-thread" aria-label={`${phone}'s OTP thread`}>
      <header class="phone-head">
        <div>
          <strong>{list[0]?.otp_number ?? "OTP number"}</strong>
          <span class="sub">{phone}'s phone</span>
        </div>
      </header>
      <ol class="messages" aria-label="Texts and replies" tabIndex={0}>
        {list.length === 0 && <li class="empty">No texts yet.</li>}
        {list.map((t: OtpText) => (
          <li
            key={t.id}
            class={`message ${t.direction === "inbound" ? "mine" : "theirs"}`}
            data-outcome={t.outcome ?? undefined}
          >
            <div class="bubble-row">
              <div class={`bubble ${t.channel}`} title={`${channelName(t.channel)} · ${timeOf(t.created_at)}`}>
                <p class="text">{t.text}</p>
              </div>
            </div>
            <p class="marks">{t.outcome && <span class="status">{t.outcome.replace("_", " ")}</span>}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
