/**
 * Bad input to the learning engine (a missing column, a table with no rows, a model file of a newer schema). The
 * message is one line meant for the user; a CLI prints it and exits non-zero, without a stack trace.
 */
export class LearnInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LearnInputError';
  }
}
