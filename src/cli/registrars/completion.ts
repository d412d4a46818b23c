import { Argument, type Command } from "@commander-js/extra-typings";
import { action } from "../action.js";
import { COMPLETION_SHELLS } from "../choices.js";

/** `msgctl completion bash|zsh|fish`: tab completion of commands, flags and their values. */
export function registerCompletionCommands(program: Command): void {
  program
    .command("completion")
    .description("print the shell completion script of bash, zsh or fish (commands, flags, event names)")
    .addArgument(new Argument("<shell>", "bash, zsh or fish").choices(COMPLETION_SHELLS))
    .addHelpText(
      "after",
      [
        "",
        "Load it in this shell:",
        "  bash  source <(msgctl completion bash)",
        "  zsh   source <(msgctl completion zsh)     (after compinit)",
        "  fish  msgctl completion fish | source",
        "Or in every shell:",
        "  bash  msgctl completion bash > ~/.local/share/bash-completion/completions/msgctl",
        '  zsh   msgctl completion zsh > "${fpath[1]}/_msgctl"',
        "  fish  msgctl completion fish > ~/.config/fish/completions/msgctl.fish",
      ].join("\n"),
    )
    .action(action(() => import("../commands/completion.js"), "completion", program));
}
