// The single binary's entry (scripts/build-binary.mjs): the CLI, as bin/msgctl runs it.
import { run } from "../src/cli/main.js";

void run(process.argv);
