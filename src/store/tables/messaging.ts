/** Rows of the messaging tables (messages, conversations, faults); filled in by the messages issue. */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface MessagingTables {}
