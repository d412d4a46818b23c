import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import { bashScript } from "../completion/bash.js";
import { fishScript } from "../completion/fish.js";
import { completionTree } from "../completion/tree.js";
import { zshScript } from "../completion/zsh.js";
import type { ConnectionFlags } from "../connection.js";
import type { Output } from "../output.js";

/** The shells `msgctl completion` writes for. */
export type CompletionShell = "bash" | "zsh" | "fish";

/**
 * `msgctl completion bash|zsh|fish`: prints the shell's completion script for this msgctl,
 * generated from the program's own commands and flags.
 */
export async function completion(
  program: CommandUnknownOpts,
  shell: CompletionShell,
  _options: ConnectionFlags,
  out: Output,
): Promise<void> {
  const tree = completionTree(program);
  // The version the program was made with (`--version`'s line): this command loads nothing of runtime/.
  const version = program.version() ?? "";
  const script =
    shell === "bash"
      ? bashScript(tree, version)
      : shell === "zsh"
        ? zshScript(tree, version)
        : fishScript(tree, version);
  // The script whatever the output mode: it is what this command is for.
  out.line(script.trimEnd());
}
