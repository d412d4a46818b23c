import type { Command } from "@commander-js/extra-typings";
import { action } from "../action.js";

/** `msgctl attachments upload|presign|get|download`: files. */
export function registerAttachmentCommands(program: Command): void {
  const commands = () => import("../commands/attachments.js");
  const attachments = program
    .command("attachments")
    .description("upload files, presign uploads, read and download attachments");
  attachments
    .command("upload <files...>")
    .description("upload up to 10 files (POST /v1/attachments); prints the attachments")
    .action(action(commands, "attachmentsUpload"));
  attachments
    .command("presign")
    .description("an upload URL to PUT a file to without the key (POST /v1/attachments/presign), with the curl line")
    .requiredOption("--filename <name>", "the file's name")
    .requiredOption("--content-type <type>", "the type the PUT will send, e.g. image/png")
    .action(action(commands, "attachmentsPresign"));
  attachments
    .command("get <id>")
    .description("one attachment with a fresh signed URL (GET /v1/attachments/:id)")
    .action(action(commands, "attachmentsGet"));
  attachments
    .command("download <id>")
    .description("save an attachment's bytes (the delivered copy once one was made)")
    .option("-o, --output <file>", "where to write (default: its filename, here)")
    .action(action(commands, "attachmentsDownload"));
}
