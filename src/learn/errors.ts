import { InputError } from '../contract/errors.js';

/**
 * Bad input to the learning engine (a missing column, a table with no rows, a model file of a newer schema): one of
 * the library's errors, whose message is one line meant for the user.
 */
export class LearnInputError extends InputError {}
