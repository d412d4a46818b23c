import type { Command } from "commander";
import type { action as Action } from "./program.js";

/**
 * `msgctl attachments upload|presign|get|download` (SANDBOX.md section 6): maps flags to options
 * and lazily imports the command functions, like program.ts.
 */
export function addAttachmentCommands(program: Command, action: typeof Action): void {
  const commands = () => import("./commands/attachments.js");
  const attachments = program
    .command("attachments")
    .description("upload files, presign uploads, read and download attachments");
  attachments
    .command("upload <files...>")
    .description("upload up to 10 files (POST /v1/attachments); prints the attachments")
    .action(action(async (flags, out, files: string[]) => (await commands()).attachmentsUpload(files, flags, out)));
  attachments
    .command("presign")
    .description("an upload URL to PUT a file to without the key (POST /v1/attachments/presign), with the curl line")
    .requiredOption("--filename <name>", "the file's name")
    .requiredOption("--content-type <type>", "the type the PUT will send, e.g. image/png")
    .action(action(async (flags, out) => (await commands()).attachmentsPresign(flags as never, out)));
  attachments
    .command("get <id>")
    .description("one attachment with a fresh signed URL (GET /v1/attachments/:id)")
    .action(action(async (flags, out, id: string) => (await commands()).attachmentsGet(id, flags, out)));
  attachments
    .command("download <id>")
    .description("save an attachment's bytes (the delivered copy once one was made)")
    .option("-o, --output <file>", "where to write (default: its filename, here)")
    .action(action(async (flags, out, id: string) => (await commands()).attachmentsDownload(id, flags, out)));
}
