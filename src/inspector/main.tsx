import { render } from "preact";
import { App } from "./views/app.js";
import { start } from "./state.js";
import "./styles.css";

/** The key the server put in the page (src/server/routes/inspector.ts), or null. */
function configuredKey(): string | null {
  try {
    const config = JSON.parse(document.getElementById("msgctl-config")?.textContent ?? "{}") as { key?: string | null };
    return config.key ?? null;
  } catch {
    return null;
  }
}

render(<App />, document.getElementById("app") as HTMLElement);
void start(configuredKey());
