import { useState } from "preact/hooks";

/** A form's action: `busy` while one runs, the last failure's message in `error` until the next starts. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

/** A failed action's message under its form, announced to screen readers. */
export function ErrorAlert({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error}
    </p>
  );
}

/** What a text field's input may say besides its value: the few the inspector's forms use. */
interface TextInputProps {
  /** A URL field (the browser checks the form of what is typed); plain text otherwise. */
  url?: boolean;
  placeholder?: string;
  size?: number;
  minLength?: number;
  maxLength?: number;
  required?: boolean;
}

/** A small form's labelled text input: the label's words, then the input, which reports each edit. */
export function TextField({
  label,
  value,
  onValue,
  url,
  ...input
}: TextInputProps & { label: string; value: string; onValue(value: string): void }) {
  return (
    <label>
      {label} <input {...input} value={value} onInput={(e) => onValue(e.currentTarget.value)} />
    </label>
  );
}
