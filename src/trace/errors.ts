/** Bad or unreadable trace input: the message names the file and what is wrong (the CLI shows it as one line). */
export class TraceInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TraceInputError';
  }
}
