import type { ScenarioStep } from "../../contract/scenario-file.js";
import { parseDuration } from "../../lib/duration.js";
import { done, StepFailed, type Done, type Outcome, type StepContext } from "./context.js";

type Body<K extends ScenarioStep["kind"]> = Extract<ScenarioStep, { kind: K }>["body"];

/** `send`: POST /v1/messages; the result is the Message. */
export async function sendStep(body: Body<"send">, { client }: StepContext): Promise<Done> {
  const { message } = await client.messages.send(
    {
      to: body.to,
      from_handle: body.from,
      conversation_id: body.conversation,
      text: body.text,
      channel: body.channel,
      effect: body.effect,
      reply_to: body.reply_to,
      media_quality: body.media_quality,
    },
    { idempotencyKey: body.idempotency_key },
  );
  return done(`sent ${message.id} (${message.status})`, message);
}

/** `simulate`: one action of the other side or the network; the result is what it answered. */
export async function simulateStep(body: Body<"simulate">, { client }: StepContext): Promise<Done> {
  const { simulate } = client;
  if (body.inbound) {
    const message = await simulate.inbound(body.inbound);
    return done(`${body.inbound.from} sent ${message.id}`, message);
  }
  if (body.delivered) return done(`${body.delivered.id} delivered`, await simulate.delivered(body.delivered.id));
  if (body.read) return done(`${body.read.id} read`, await simulate.read(body.read.id));
  if (body.fail) return done(`${body.fail.id} failed`, await simulate.fail(body.fail.id, body.fail.error));
  if (body.reaction) {
    const { id, ...rest } = body.reaction;
    return done(`${rest.from} reacted ${rest.reaction} to ${id}`, await simulate.reaction({ message_id: id, ...rest }));
  }
  if (body.typing) {
    const { from, to, group, stop } = body.typing;
    const chat = await simulate.typing({ from, to, conversation_id: group, typing: !stop });
    return done(`${from} ${stop ? "stopped typing" : "is typing"} in ${chat.id}`, chat);
  }
  if (body.rename) {
    const { id, title, from } = body.rename;
    return done(`${id} renamed`, await simulate.rename({ conversation_id: id, title, from }));
  }
  for (const action of ["add", "remove"] as const) {
    const change = body[action];
    if (change) {
      const chat = await simulate.participants({
        conversation_id: change.id,
        action,
        handle: change.handle,
        from: change.from,
      });
      return done(`${change.from} ${action === "add" ? "added" : "removed"} ${change.handle}`, chat);
    }
  }
  if (body.edit) {
    const message = await simulate.edit({ message_id: body.edit.id, text: body.edit.text });
    return done(`${body.edit.id} edited`, message);
  }
  if (body.fault) {
    const { number, fault, count, off } = body.fault;
    return done(`${number}: ${fault}${off ? " off" : ""}`, await simulate.fault(number, fault, { count, off }));
  }
  if (body.otp_fault) {
    const faults = await client.otp.fault("unavailable", { off: body.otp_fault.off });
    return done(`OTP host ${body.otp_fault.off ? "back" : "unavailable"}`, faults);
  }
  throw new StepFailed("no simulate action given");
}

/** `otp`: create a challenge, text it as its user, or consume it. */
export async function otpStep(body: Body<"otp">, { client }: StepContext): Promise<Done> {
  if (body.create) {
    const challenge = await client.otp.create(body.create.phone);
    return done(`challenge ${challenge.id} for ${challenge.phone}`, challenge);
  }
  if (body.text) {
    const { id, ...input } = body.text;
    const result = await client.otp.text(id, input);
    return done(`texted ${id}`, result);
  }
  if (body.consume) {
    const challenge = await client.otp.consume(body.consume.id);
    return done(`${challenge.id} ${challenge.status}`, challenge);
  }
  throw new StepFailed("no otp action given");
}

/** `webhook`: POST /v1/webhooks; the result is the endpoint with its secret. */
export async function webhookStep(body: Body<"webhook">, { client }: StepContext): Promise<Done> {
  const { webhook } = await client.webhooks.create(body);
  return done(`endpoint ${webhook.id} for ${webhook.url}`, webhook);
}

/** `advance`: moves a manual clock; on a real clock the step fails saying so. */
export async function advanceStep(body: Body<"advance">, { client }: StepContext): Promise<Done> {
  const clock = await client.sandbox.clock();
  if (clock.mode !== "manual")
    throw new StepFailed(
      "advance needs a manual clock, and this sandbox's clock is real: start it with `msgctl serve --clock manual`, or use `msgctl run --serve`",
    );
  const moved = await client.sandbox.advance(parseDuration(body));
  return done(`clock at ${moved.now}`, moved);
}

/** `settle`: until nothing due is in flight; never moves the clock. */
export async function settleStep(body: Body<"settle">, { client }: StepContext): Promise<Done> {
  const result = await client.sandbox.settle({ timeout: body?.timeout });
  return done(`settled (${result.jobs_run} jobs, ${result.attempts} attempts)`, result);
}

/** `chaos`: seeded chaos on (`{ seed, profile }`) or `off`, for the whole sandbox; the result is the chaos in force. */
export async function chaosStep(body: Body<"chaos">, { client }: StepContext): Promise<Done> {
  if (body === "off") return done("chaos off", await client.chaos.off());
  const status = await client.chaos.on(body);
  return done(`chaos on: seed ${JSON.stringify(status.seed)}, profile ${status.profile}`, status);
}

/** `check`: the user's webhook handler graded (docs/check.md); unmet when a probe failed, naming each with its why. */
export async function checkStep(body: Body<"check">, { client }: StepContext): Promise<Outcome> {
  const report = await client.webhooks.check(body);
  const failed = report.probes.filter((probe) => probe.verdict === "fail");
  if (failed.length === 0) return done(`${report.url} passed all ${report.probes.length} probes`, report);
  return {
    passed: false,
    message: `${report.url} failed ${failed.length} of ${report.probes.length} probes`,
    details: failed.map((probe) => `${probe.probe} (${probe.status ?? "no answer"}): ${probe.why}`),
    result: report,
  };
}
