import { useEffect, useState } from "preact/hooks";
import { dateTimeOf } from "../format.js";
import { sandboxNow, setClock, useInspector } from "../state.js";
import { useAction } from "./form-parts.js";

const STEPS = ["5s", "1m", "10m", "1h", "24h"];

/** The sandbox's time and mode, always in view; on a manual clock, the buttons that move it. */
export function ClockBar() {
  const inspector = useInspector();
  const [duration, setDuration] = useState("");
  const { busy, error, setError, run } = useAction();
  const [, tick] = useState(0);
  const real = inspector.clock?.mode === "real";
  // A real clock moves between reads: redraw it every second.
  useEffect(() => {
    if (!real) return;
    const timer = setInterval(() => tick((n) => n + 1), 1_000);
    return () => clearInterval(timer);
  }, [real]);
  if (!inspector.clock || !inspector.client) return null;
  const client = inspector.client;

  const advance = (by: string) => run(async () => setClock(await client.sandbox.advance(by)));

  return (
    <section class="clock" aria-label="Sandbox clock">
      <span class="now" data-testid="clock-now">
        <time dateTime={inspector.clock.now}>{dateTimeOf(sandboxNow(inspector))}</time>
        <span class={`mode ${inspector.clock.mode}`}>{inspector.clock.mode}</span>
      </span>
      {!real && (
        <span class="advance">
          {STEPS.map((step) => (
            <button
              key={step}
              type="button"
              disabled={busy}
              onClick={() => void advance(step)}
              aria-label={`Advance the clock ${step}`}
            >
              +{step}
            </button>
          ))}
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (duration.trim()) void advance(duration.trim());
            }}
          >
            <input
              value={duration}
              onInput={(e) => {
                setDuration(e.currentTarget.value);
                setError(null);
              }}
              placeholder="1h30m"
              aria-label="Advance by a duration (500ms, 90s, 10m, 1h30m, 2d)"
              size={7}
            />
            <button type="submit" disabled={busy || !duration.trim()}>
              Advance
            </button>
          </form>
        </span>
      )}
      {error && (
        <span class="error" role="alert">
          {error}
        </span>
      )}
    </section>
  );
}
